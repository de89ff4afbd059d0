"""Bad option values get a usage error that says what the option needs, never Python's words."""

import pytest

from labeler.cli import main


def usage_error(capsys, *argv: str) -> str:
    """The one stderr line argparse prints for a bad value (it exits with status 2)."""
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("command", ["add-item", "erase"])
@pytest.mark.parametrize("clip", ["1,2,a,4", "1,2,3", "1,2,3,4,5", "", "nan,0,10,10", "0,0,inf,9"])
def test_a_clip_that_is_not_four_numbers_is_explained(capsys, command, clip, tmp_path):
    line = usage_error(capsys, command, *_required(command, tmp_path), "--clip", clip)
    assert "argument --clip: needs four numbers X0,Y0,X1,Y1 in PDF points" in line
    assert "invalid" not in line and repr(clip) in line


@pytest.mark.parametrize("command", ["add-item", "erase"])
@pytest.mark.parametrize("clip", ["10,10,5,20", "10,10,20,10"])
def test_an_inside_out_clip_is_explained(capsys, command, clip, tmp_path):
    line = usage_error(capsys, command, *_required(command, tmp_path), "--clip", clip)
    assert "argument --clip: needs X1 > X0 and Y1 > Y0" in line


@pytest.mark.parametrize("command", ["add-item", "erase"])
@pytest.mark.parametrize(("option", "value"), [("--page", "0"), ("--page", "two"), ("--dpi", "-3")])
def test_pages_and_resolutions_are_whole_numbers_from_one(capsys, command, option, value, tmp_path):
    if option == "--page":
        args = _required(command, tmp_path, page=value)
    else:
        args = [*_required(command, tmp_path), option, value]
    line = usage_error(capsys, command, *args)
    assert f"argument {option}: needs a whole number of at least 1 (got {value!r})" in line


def test_run_concurrency_is_checked_before_the_project_is_opened(capsys, tmp_path):
    line = usage_error(capsys, "run", str(tmp_path / "nowhere"), "--concurrency", "0")
    assert "argument --concurrency: needs a whole number of at least 1 (got '0')" in line


def test_report_help_prints_a_percent_sign_not_a_format_escape(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["report", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "recitation share (no-image ÷ told, %)" in " ".join(out.split())
    assert "%%" not in out


def test_every_command_help_is_free_of_format_escapes(capsys):
    from labeler.cli import build_parser

    commands = build_parser()._subparsers._group_actions[0].choices  # the registered commands
    assert {"init", "add-item", "erase", "run", "export", "report", "gui", "demo"} <= set(commands)
    for name in commands:
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        assert "%%" not in out and "%(" not in out, name


def _required(command: str, tmp_path, page: str = "1") -> list[str]:
    """The other required arguments, so argparse reaches the option under test."""
    if command == "add-item":
        return [str(tmp_path / "p"), "--pdf", "book.pdf", "--page", page]
    return ["--pdf", "book.pdf", "--page", page, "--out", str(tmp_path / "o")]
