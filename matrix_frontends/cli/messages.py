"""The one line every refusal is written as, for every front end: the command line,
argparse's own messages, --batch and the explorer (options.py re-exports it)."""
from __future__ import annotations

MESSAGE_WORD, MESSAGE_LENGTH = 80, 1000  # (characters of one word, of a whole message)


def message_text(message: str) -> str:
    """A message as the one line every refusal is written as: control
    characters escaped (no raw terminal bytes), whitespace runs one space, a word longer
    than MESSAGE_WORD cut short and the whole at most about MESSAGE_LENGTH characters.
    Every path that reports an error (the command line, argparse's own messages, --batch,
    the explorer) goes through it."""
    if not message.isprintable():
        message = "".join(c if c.isprintable() or c in " \n\t" else repr(c)[1:-1]
                          for c in message)
    words = [word if len(word) <= MESSAGE_WORD else
             f"{word[:MESSAGE_WORD // 2]}... ({len(word):,} characters)"
             for word in message.split()]
    text = " ".join(words)
    return text if len(text) <= MESSAGE_LENGTH else text[:MESSAGE_LENGTH - 3] + "..."


class Noted(str):
    """An output with notes for stderr: the command writes the output on stdout, then each
    note as one line `PROGRAM: note: ...` on stderr (stdout keeps its bytes); the other
    front ends read the notes attribute or ignore it."""

    notes: tuple[str, ...]

    def __new__(cls, text: str, notes: tuple[str, ...] = ()) -> Noted:
        output = super().__new__(cls, text)
        output.notes = notes
        return output


def notes_of(text: str) -> tuple[str, ...]:
    """The notes an output carries (none for a plain str)."""
    return text.notes if isinstance(text, Noted) else ()
