from autoplayer.cli import main


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert "autoplayer" in capsys.readouterr().out
