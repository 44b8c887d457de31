"""The explorer: `--serve`'s local server (`server`, `pool`, `heads`), its queries (`app`)
and plan panels (`plans`)."""
