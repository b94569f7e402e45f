"""`python -m warroom`: the same command line as the `warroom` script, for when the script is not
on PATH (a virtualenv not activated, an install without console scripts)."""

from warroom.cli import app

if __name__ == "__main__":
    app(prog_name="python -m warroom")
