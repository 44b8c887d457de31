"""Layer 6, the front ends: the command line (`cli`), `--batch` (`batch`) and the
explorer's local server (`explorer`). Each turns its input into the library's
`Request`s and prints what formats/ renders."""
