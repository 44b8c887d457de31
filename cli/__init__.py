"""The front ends (layer 5): the command line (`matrix_cli`: the process around one
command; `cli_options`: the one option table, the fast parser; `cli_respond`: answering
one command line; `cli_modes`, `cli_inputs`, `cli_lds_options`, `matrix_cli_lds`,
`matrix_convert`: the modes), `--batch` (`cli_batch`), shell completion (`cli_complete`)
and the explorer's local server (`matrix_explorer`). Each turns its input into the
library's `Request`s and prints what formats/ renders."""
