"""The command line: the option table (`options`), one command line answered (`respond`),
the modes (`modes` and the plan modes beside it), completion and the process around a
command (`command`)."""
