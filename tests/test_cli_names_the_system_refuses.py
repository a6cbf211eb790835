"""Names the operating system refuses (too long for a file name, an embedded NUL, a folder
under /proc) where a command takes a scenario, a game, a file or a folder: each is one line
naming it, exit 2, never a traceback (they raised OSError from ``Path.exists`` before)."""

from __future__ import annotations

import pytest

from umpire.cli.main import main

LONG = "x" * 300  # over the 255 bytes a file name may have


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", LONG, "-n", "2"], "no scenario"),
        (["battle", LONG, "--no-save"], "no scenario"),
        (["games", "verify", LONG], "unknown game"),
        (["simulate", "standard", "-n", "2", "--rules-data", LONG], "--rules-data: no folder"),
        (["rules", "copy", "quick-acw", LONG], "cannot write"),
        (["rules", "copy", "quick-acw", "/proc/umpire-here"], "cannot write"),
        (["render", LONG, "-o", "/tmp/umpire-render-test.png"], "is not a scenario"),
        (["render", "standard", "-o", f"/tmp/{LONG}.png"], "File name too long"),
        (["battle", "nul\x00name", "--no-save"], "no scenario"),
    ],
)
def test_a_refused_name_is_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out[-300:], err[-300:])
    assert err.count("\n") == 1 and words in err and "Traceback" not in err + out, err


@pytest.mark.parametrize(
    ("host", "words"),
    [
        (LONG, "not an address of this machine"),
        ("", "give an address to listen on"),
        ("nosuch.invalid", "not an address of this machine"),
    ],
)
def test_serve_refuses_an_address_it_cannot_listen_on(
    host: str, words: str, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    """``umpire serve --host`` that is no address here is one line before anything starts
    (a long name raised UnicodeError from the idna codec inside the server)."""
    capsys.readouterr()
    assert main(["serve", "--host", host, "--db", f"{tmp_path}/s.db"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def test_serve_refuses_a_port_in_use(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        capsys.readouterr()
        argv = ["serve", "--port", str(port), "--db", f"{tmp_path}/s.db"]
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot listen there" in err, err
