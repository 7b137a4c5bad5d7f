

def _forwarded_as_attachment(author: str) -> bytes:
    return (b"From: Anna France <france@players.test>\nTo: gm@gm.test\nSubject: FW: lepanto orders\n"
            b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n"
            b"Sending again.\n--b\nContent-Type: message/rfc822\n\n"
            b"From: " + author.encode() + b"\nTo: gm@gm.test\nSubject: lepanto orders\n\nA Par - Bur\nF Bre - Mao\n"
            b"--b--\n")


def test_a_forward_as_attachment_of_the_players_own_mail_is_read_and_anyone_elses_named() -> None:
    own = read_message(_forwarded_as_attachment("Anna <france@players.test>"))
    assert own.orders.split("\n") == ["Sending again.", "", "A Par - Bur", "F Bre - Mao"]
    other = read_message(_forwarded_as_attachment("Franz <austria@players.test>"))
    assert other.orders == "Sending again."
    assert other.notes[0].startswith("A forwarded message (from austria@players.test) was not read")
