"""SSH public keys on the account: checked by `cryptography`, fingerprinted like ssh-keygen, private keys refused."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
from django.urls import reverse

from gpurent.accounts.models import SshKey
from gpurent.accounts.services import ssh_key_add, ssh_key_remove
from gpurent.accounts.sshkeys import public_key_parse
from gpurent.core.errors import InvalidRequest, NotFound

# Made with `ssh-keygen -t ed25519 -C ana@laptop`; the fingerprint is what `ssh-keygen -lf` printed for it.
ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo ana@laptop"
ED25519_FINGERPRINT = "SHA256:xCEx7JbDd3x2dkFBo6frjzFkHBhSZZMGlIXTf6NN5OA"


def openssh_private_key() -> str:
    key = ed25519.Ed25519PrivateKey.generate()
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()
    ).decode()


def test_public_key_parse_gives_the_ssh_keygen_fingerprint():
    parsed = public_key_parse(f"  {ED25519}\n")
    assert parsed.fingerprint == ED25519_FINGERPRINT
    assert parsed.key_type == "ssh-ed25519"
    assert parsed.line == ED25519
    assert parsed.comment == "ana@laptop"


def test_public_key_parse_accepts_rsa_without_comment():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    line = key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
    parsed = public_key_parse(line)
    assert parsed.key_type == "ssh-rsa"
    assert parsed.fingerprint.startswith("SHA256:")
    assert len(parsed.fingerprint) == len("SHA256:") + 43


@pytest.mark.parametrize(
    "text",
    [
        openssh_private_key(),
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none",
    ],
)
def test_public_key_parse_refuses_private_keys_and_says_so(text):
    with pytest.raises(InvalidRequest, match="This is a private key"):
        public_key_parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1",  # truncated
        "ssh-ed25519 bm90IGEga2V5",  # base64 of "not a key"
        "ssh-foo AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo",
        "hello world",
    ],
)
def test_public_key_parse_refuses_what_is_not_a_public_key(text):
    with pytest.raises(InvalidRequest, match="not a valid SSH public key"):
        public_key_parse(text)


DSA = (
    "ssh-dss AAAAB3NzaC1kc3MAAACBAP1/U4EddRIpUt9KnC7s5Of2EbdSPO9EAMMeP4C2USZpRV1AIlH7WT2NWPq/xfW6MPbLm1Vs14E7gB00b/JmY"
    "LdrmVClpJ+f6AR7ECLCT7up1/63xhv4O1fnxqimFQ8E+4P208UewwI1VBNaFpEy9nXzrith1yrv8iIDGZ3RSAHHAAAAFQCXYFCPFSMLzLKSuYKi64QL"
    "8Fgc9QAAAIEA9+GghdabPd7LvKtcNrhXuXmUr7v6OuqC+VdMCz0HgmdRWVeOutRZT+ZxBxCBgLRJFnEj6EwoFhO3zwkyjMim4TwWeotUfI0o4KOuHiu"
    "zpnWRbqN/C/ohNWLx+2J6ASQ7zKTxvqhRkImog9/hWuWfBpKLZl6Ae1UlZAFMO/7PSSoAAACBAPLH1nY0M1q1w/1+Bvu0rb3wTTfyDaTfBSbw1ua8fB3D"
    "5QNgsVCrzC+QUsMfmuTkSX0z0g1uF0bH2rSt0Hy9PGz5wSd1pXXS0wLQLGC3bS+QXDO3Lq1bp4HuYD7LG8ELkFKHOHY4RKm8Syb4dW0f1XeMJgXgqKkw"
    "+mTZc3WgCl1c old@box"
)


def test_public_key_parse_refuses_dsa_which_openssh_no_longer_accepts():
    with pytest.raises(InvalidRequest):
        public_key_parse(DSA)


def test_public_key_parse_keeps_only_printable_characters_of_the_comment():
    # A GPU host's agent refuses a key line with a control or line-breaking character in it.
    parsed = public_key_parse(ED25519.replace("ana@laptop", "ana\x1c@\u2028lap\x85top\r"))
    assert parsed.comment == "ana@laptop"
    assert parsed.line == ED25519


def test_public_key_parse_refuses_empty_and_several_lines():
    with pytest.raises(InvalidRequest, match="Paste your SSH public key"):
        public_key_parse("   ")
    with pytest.raises(InvalidRequest, match="one public key, on one line"):
        public_key_parse(f"{ED25519}\n{ED25519}")


def test_ssh_key_add_stores_the_key_once_per_user(user, other_user):
    key = ssh_key_add(user=user, name=" laptop ", public_key=ED25519)
    assert (key.name, key.fingerprint, key.public_key) == ("laptop", ED25519_FINGERPRINT, ED25519)
    with pytest.raises(InvalidRequest, match="already on your account"):
        ssh_key_add(user=user, name="again", public_key=ED25519)
    ssh_key_add(user=other_user, name="shared", public_key=ED25519)  # another account may hold it too
    assert SshKey.objects.count() == 2


def test_ssh_key_add_never_stores_a_private_key(user):
    with pytest.raises(InvalidRequest):
        ssh_key_add(user=user, name="oops", public_key=openssh_private_key())
    assert not SshKey.objects.exists()


def test_ssh_key_remove_is_owner_scoped(user, other_user):
    key = ssh_key_add(user=user, name="laptop", public_key=ED25519)
    with pytest.raises(NotFound):
        ssh_key_remove(user=other_user, key_id=key.pk)
    ssh_key_remove(user=user, key_id=key.pk)
    assert not SshKey.objects.exists()


def test_account_page_adds_lists_and_removes_a_key(client, user):
    client.force_login(user)
    added = {"name": "laptop", "public_key": ED25519, "idempotency_key": "k-add"}
    response = client.post(reverse("accounts:ssh_key_create"), added, follow=True)
    assert ED25519_FINGERPRINT in response.content.decode()
    key = SshKey.objects.get(user=user)
    response = client.post(reverse("accounts:ssh_key_remove", args=[key.pk]), {"idempotency_key": "k-rm"}, follow=True)
    assert "SSH key “laptop” removed." in response.content.decode()
    assert not SshKey.objects.exists()


def test_a_double_submitted_key_is_added_once_and_the_second_answer_is_the_first(client, user):
    client.force_login(user)
    added = {"name": "laptop", "public_key": ED25519, "idempotency_key": "k-add"}
    first = client.post(reverse("accounts:ssh_key_create"), added, follow=True)
    again = client.post(reverse("accounts:ssh_key_create"), added, follow=True)
    assert first.redirect_chain == again.redirect_chain == [(reverse("accounts:account") + "#ssh-keys", 302)]
    assert "This key is already on your account." not in again.content.decode()  # a replay, not a second add
    assert SshKey.objects.filter(user=user).count() == 1


def test_a_double_submitted_removal_answers_as_the_first_did(client, user):
    key = ssh_key_add(user=user, name="laptop", public_key=ED25519)
    client.force_login(user)
    url = reverse("accounts:ssh_key_remove", args=[key.pk])
    first = client.post(url, {"idempotency_key": "k-rm"}, follow=True)
    again = client.post(url, {"idempotency_key": "k-rm"}, follow=True)  # the row is gone: a replay, not a 404
    assert first.redirect_chain == again.redirect_chain == [(reverse("accounts:account") + "#ssh-keys", 302)]
    assert not SshKey.objects.exists()


def test_a_removal_without_the_pages_key_is_refused_and_removes_nothing(client, user):
    key = ssh_key_add(user=user, name="laptop", public_key=ED25519)
    client.force_login(user)
    response = client.post(reverse("accounts:ssh_key_remove", args=[key.pk]), follow=True)
    assert "SSH key “laptop” removed." not in response.content.decode()
    assert SshKey.objects.filter(pk=key.pk).exists()


def test_account_page_refuses_a_private_key_without_echoing_it(client, user):
    client.force_login(user)
    private = openssh_private_key()
    posted = {"name": "oops", "public_key": private, "idempotency_key": "k-oops"}
    response = client.post(reverse("accounts:ssh_key_create"), posted)
    page = response.content.decode()
    assert response.status_code == 422  # the form again, with what is wrong
    assert "This is a private key." in page
    assert private.splitlines()[1] not in page
    assert not SshKey.objects.exists()


def test_removing_another_users_key_is_a_404(client, user, other_user):
    key = ssh_key_add(user=other_user, name="theirs", public_key=ED25519)
    client.force_login(user)
    response = client.post(reverse("accounts:ssh_key_remove", args=[key.pk]), {"idempotency_key": "k-theirs"})
    assert response.status_code == 404
    assert SshKey.objects.filter(pk=key.pk).exists()
