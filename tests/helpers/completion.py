"""What the generated bash completion offers for a command line's words."""
import subprocess
import sys

from tests.helpers import REPO

SCRIPT = str(REPO / "matrix_calculator.py")


def bash_complete(words):
    script = subprocess.run([sys.executable, SCRIPT, "--completion", "bash"],
                            capture_output=True, text=True, check=True).stdout
    line = " ".join(f"'{w}'" for w in words)
    test = (f'{script}\nCOMP_WORDS=(matrix-calculator {line}); '
            f'COMP_CWORD={len(words)}; _matrix_calculator; printf "%s\\n" "${{COMPREPLY[@]}}"')
    proc = subprocess.run(["bash", "-c", test], capture_output=True, text=True, check=False,
                          timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()
