#!/bin/sh
# Install the real mail servers the integration tests run privately on 127.0.0.1:
# Dovecot (IMAP + LMTP) from Debian's packages, openssl for the test certificate, and a
# `vmail` system user that owns the test mailboxes; and libcairo2, which cairosvg needs to draw
# the report map's board (gmserver/mapimage.py) in the tests and the demo; and Chromium
# with its WebDriver, which the web pages' browser tests drive headless through Selenium.
#
# Idempotent, and fast (no apt, no network) when everything is already there.
# The packages' own system service is never started: the tests run their own instance.
set -eu

PACKAGES="dovecot-imapd dovecot-lmtpd openssl libcairo2 chromium chromium-driver"
MAIL_USER=vmail

has_cairo() {
    ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2' && return 0
    ls /usr/lib/*/libcairo.so.2 /usr/lib/libcairo.so.2 >/dev/null 2>&1
}

missing() {
    command -v dovecot >/dev/null 2>&1 || return 0
    [ -x /usr/lib/dovecot/imap ] || return 0
    [ -x /usr/lib/dovecot/lmtp ] || return 0
    command -v openssl >/dev/null 2>&1 || return 0
    has_cairo || return 0
    command -v chromium >/dev/null 2>&1 || return 0
    command -v chromedriver >/dev/null 2>&1 || return 0
    return 1
}

need_user() {
    ! getent passwd "$MAIL_USER" >/dev/null 2>&1
}

if ! missing && ! need_user; then
    echo "install-test-services: $PACKAGES and user $MAIL_USER already present; nothing to do"
    exit 0
fi

privileged=1
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    SUDO=""
    privileged=""
fi

did=""

if missing; then
    if [ -z "$privileged" ]; then
        echo "install-test-services: $PACKAGES missing; run this script as root or install sudo" >&2
        exit 1
    fi
    command -v apt-get >/dev/null 2>&1 || {
        echo "install-test-services: apt-get not found; install $PACKAGES by hand (Debian/Ubuntu expected)" >&2
        exit 1
    }
    # Keep the package's system Dovecot (ports 143/993) from starting: invoke-rc.d honours
    # policy-rc.d exit code 101. Only create one if the machine has none, and remove ours after.
    POLICY=/usr/sbin/policy-rc.d
    our_policy=""
    if [ ! -e "$POLICY" ]; then
        $SUDO sh -c "printf '#!/bin/sh\n# created by gmserver scripts/install-test-services.sh\nexit 101\n' > $POLICY && chmod 755 $POLICY"
        our_policy=1
        trap '$SUDO rm -f "$POLICY"' EXIT INT TERM
    fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        $PACKAGES >/dev/null
    # A system without policy-rc.d support (e.g. systemd started it anyway): stop it.
    if [ -n "$our_policy" ] && command -v systemctl >/dev/null 2>&1; then
        $SUDO systemctl disable --now dovecot >/dev/null 2>&1 || true
    fi
    did="installed $PACKAGES"
fi

if need_user && [ -z "$privileged" ]; then
    # Tests run by a non-root user run Dovecot as that user and need no mail user.
    did="${did:+$did; }no user $MAIL_USER (not needed when tests run unprivileged)"
elif need_user; then
    $SUDO useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
        "$MAIL_USER"
    did="${did:+$did; }created system user $MAIL_USER"
fi

echo "install-test-services: $did ($(dovecot --version 2>/dev/null | cut -d' ' -f1))"
