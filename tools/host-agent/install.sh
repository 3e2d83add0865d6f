#!/bin/sh
# Install the gpurent host agent on a GPU host (Debian/Ubuntu), run as root:
#
#   sudo sh install.sh 'ssh-ed25519 AAAA... gpurent-shop'
#
# Copies the agent to /usr/local/sbin/gpurent-host-agent, writes /etc/gpurent/host-agent.json with the defaults
# if it is missing, and lets the shop's key log in as root with the agent as its forced command (once: running
# it again changes nothing). GPURENT_INSTALL_ROOT=DIR installs under DIR instead of / (for trying it out).
set -eu

ROOT="${GPURENT_INSTALL_ROOT:-}"
HERE=$(cd "$(dirname "$0")" && pwd)
AGENT=/usr/local/sbin/gpurent-host-agent

die() { echo "install.sh: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: sudo sh install.sh 'ssh-ed25519 AAAA... gpurent-shop' (the shop's public key)"
KEY=$1
[ "$(id -u)" = 0 ] || [ -n "$ROOT" ] || die "run it as root (sudo sh install.sh '...')"

# The key: "<type> <base64> [comment]" on one line, with no options of its own (the line gets ours).
case $KEY in
    *'
'*) die "the key must be one line" ;;
esac
set -f
# shellcheck disable=SC2086
set -- $KEY
set +f
[ $# -ge 2 ] || die "expected '<type> <base64> [comment]', got: $KEY"
case $1 in
    ssh-ed25519 | ecdsa-sha2-nistp256 | ecdsa-sha2-nistp384 | ecdsa-sha2-nistp521 | ssh-rsa | \
        sk-ssh-ed25519@openssh.com | sk-ecdsa-sha2-nistp256@openssh.com) ;;
    *) die "'$1' is not a public key type (a key line with options such as command=\"...\" is not accepted)" ;;
esac
printf '%s' "$2" | grep -Eq '^[A-Za-z0-9+/]+={0,2}$' || die "the key's base64 part is not base64"
KEY="$*"  # single spaces
KEY_DATA=$2

# What the agent runs on the host, and the package of each.
missing=""
for pair in python3:python3-minimal setfacl:acl useradd:passwd usermod:passwd userdel:passwd pkill:procps; do
    tool=${pair%%:*}
    package=${pair#*:}
    if ! PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$tool" >/dev/null 2>&1; then
        echo "install.sh: $tool is missing: apt-get install $package" >&2
        missing="$missing $package"
    fi
done
[ -x /usr/bin/python3 ] || { echo "install.sh: /usr/bin/python3 is missing" >&2; missing="$missing python3-minimal"; }
[ -z "$missing" ] || die "install the missing packages first: sudo apt-get install$missing"

install -d -m 755 "$ROOT/usr/local/sbin"
install -m 755 "$HERE/gpurent-host-agent" "$ROOT$AGENT"
[ "$(id -u)" != 0 ] || chown root:root "$ROOT$AGENT"
echo "agent: $ROOT$AGENT"

CONFIG="$ROOT/etc/gpurent/host-agent.json"
if [ -e "$CONFIG" ]; then
    echo "config: $CONFIG (kept)"
else
    install -d -m 755 "$ROOT/etc/gpurent"
    cat > "$CONFIG" <<'EOF'
{
  "device_dir": "/dev",
  "nvidia_smi": "nvidia-smi",
  "rocm_smi": "rocm-smi",
  "home_base": "/home",
  "allow_sudo": false,
  "environments": {},
  "path": "/usr/sbin:/usr/bin:/sbin:/bin"
}
EOF
    chmod 644 "$CONFIG"
    echo "config: $CONFIG (written with the defaults)"
fi

KEYS="$ROOT/root/.ssh/authorized_keys"
LINE="restrict,command=\"$AGENT\" $KEY"
install -d -m 700 "$ROOT/root/.ssh"
[ -e "$KEYS" ] || install -m 600 /dev/null "$KEYS"
if grep -qxF "$LINE" "$KEYS"; then
    echo "shop key: already in $KEYS"
elif grep -qF "$KEY_DATA" "$KEYS"; then
    die "$KEYS already holds this key on another line (maybe without the forced command): remove that line first"
else
    printf '%s\n' "$LINE" >> "$KEYS"
    echo "shop key: added to $KEYS (it can run nothing but $AGENT)"
fi

if [ -z "$ROOT" ]; then
    permit=$(sshd -T 2>/dev/null | awk '$1 == "permitrootlogin" { print $2 }') || permit=""
    if [ "$permit" = no ]; then
        echo "install.sh: warning: sshd has 'PermitRootLogin no'; set 'PermitRootLogin forced-commands-only'" \
            "in /etc/ssh/sshd_config and reload sshd, or the shop cannot reach the agent" >&2
    fi
    pub=/etc/ssh/ssh_host_ed25519_key.pub
    if [ -r "$pub" ]; then
        echo "host key to register in the shop: $(cut -d' ' -f1,2 "$pub")" \
            "($(ssh-keygen -lf "$pub" -E sha256 | cut -d' ' -f2))"
    fi
fi
echo "done: the shop's key can now call the agent on this host (try: ssh root@HOST inventory)"
