"""A DKIM key pair made for a test: the private key dkimpy signs with, and the TXT record a
test's DNS lookup answers (there is no network here, and no real DNS)."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path


def new_dkim_key(folder: Path) -> tuple[bytes, str]:
    """(private key PEM, the TXT record that publishes its public half), made with openssl."""
    private = folder / "private.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(private), "2048"], check=True, capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(private), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return private.read_bytes(), "v=DKIM1; k=rsa; p=" + base64.b64encode(public).decode()
