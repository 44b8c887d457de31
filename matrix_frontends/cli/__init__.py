"""The command line: the option table (`options`), one command line answered (`respond`),
the mode table (`modes`), completion and the process around a command (`command`).

The modules are named by what they hold: `*_options` the option rows of a kind of plan,
as data (read at every start, running no code of theirs), `*_modes` mode rows of the
mode table, and `*_mode` the handling of a mode, loaded when the mode runs."""
