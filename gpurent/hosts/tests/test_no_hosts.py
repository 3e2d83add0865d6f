"""GPU hosts when none are configured, or the shop has no SSH key for them (QA walk of the back office, defect 21):
the empty list says rentals then go to the provisioning desk, the add page warns before the form is filled,
registering names the shop's setting (not the host), the guide is a link, and `manage.py hosts` says what it
listed and checked."""

import io
import re

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.urls import reverse

from gpurent.hosts.models import GpuHost, HostOperation

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_user(
        "prov@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="provisioning"))
    client.force_login(user)
    return client


@pytest.fixture
def shop_key(tmp_path, settings):
    path = tmp_path / "hosts_ed25519"
    path.write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()
        )
    )
    settings.HOSTS_SSH_KEY_FILE = str(path)
    return path


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).replace("&#x27;", "'").split())


def test_the_empty_list_says_paid_rentals_go_to_the_provisioning_desk(operator, shop_key):
    response = operator.get(reverse("admin:hosts_gpuhost_changelist"))
    assert "No GPU hosts: paid rentals are provisioned by hand at the provisioning desk" in text(response)
    page = response.content.decode()
    assert f'href="{reverse("admin:backoffice_provisioningdesk_changelist")}"' in page
    assert f'href="{reverse("admin:hosts_gpuhost_guide")}"' in page


def test_the_list_of_hosts_has_no_such_note(operator, shop_key, gpu):
    GpuHost.objects.create(name="node-1", address="127.0.0.1", port=9, gpu=gpu, gpu_indices=[0], host_key="x")
    assert "No GPU hosts" not in text(operator.get(reverse("admin:hosts_gpuhost_changelist")))


def test_the_add_page_warns_before_the_form_is_filled_when_the_shop_has_no_key(operator, settings):
    settings.HOSTS_SSH_KEY_FILE = ""
    page = text(operator.get(reverse("admin:hosts_gpuhost_add")))
    assert "The shop has no SSH key for its GPU hosts" in page
    assert "HOSTS_SSH_KEY_FILE is not set in the shop's settings" in page
    # The list says it too: every host would be unreachable.
    assert "HOSTS_SSH_KEY_FILE is not set" in text(operator.get(reverse("admin:hosts_gpuhost_changelist")))


def test_the_add_page_warns_when_the_key_file_cannot_be_read(operator, settings, tmp_path):
    settings.HOSTS_SSH_KEY_FILE = str(tmp_path / "missing")
    assert "cannot be read" in text(operator.get(reverse("admin:hosts_gpuhost_add")))


def test_no_banner_with_a_readable_key(operator, shop_key):
    page = text(operator.get(reverse("admin:hosts_gpuhost_add")))
    assert "no SSH key" not in page
    assert "Install the host agent on the host first" in page


def test_registering_without_the_shops_key_blames_the_setting_not_the_host(operator, settings, gpu):
    settings.HOSTS_SSH_KEY_FILE = ""
    data = {"name": "node-1", "address": "127.0.0.1", "port": "9", "user": "root", "gpu": gpu.slug, "gpus": "0"}
    page = text(operator.post(reverse("admin:hosts_gpuhost_add"), data))
    assert "The shop has no SSH key for its GPU hosts: the host was not contacted." in page
    assert "HOSTS_SSH_KEY_FILE is not set in the shop's settings" in page
    assert "does not answer" not in page
    assert not GpuHost.objects.exists()


def test_the_guide_is_a_link_to_a_page_that_shows_it(operator):
    add = operator.get(reverse("admin:hosts_gpuhost_add")).content.decode()
    guide = reverse("admin:hosts_gpuhost_guide")
    assert re.search(rf'<a href="{guide}#add-a-gpu-host"[^>]*>docs/hosts.md', add)
    page = text(operator.get(guide))
    assert "GPU hosts: rentals that provision themselves" in page
    assert "HOSTS_SSH_KEY_FILE=/etc/gpurent/hosts_ed25519" in page


def test_the_guide_is_for_staff_only(client, django_user_model):
    assert client.get(reverse("admin:hosts_gpuhost_guide")).status_code == 302  # to the back office's login


def test_hosts_list_says_when_no_host_is_registered():
    out = io.StringIO()
    call_command("hosts", "list", stdout=out)
    assert out.getvalue().startswith("no hosts registered")
    assert "NAME" not in out.getvalue()


def test_hosts_check_says_what_it_checked(gpu, settings):
    out = io.StringIO()
    call_command("hosts", "check", stdout=out)
    assert out.getvalue().startswith("no hosts registered: nothing to check")

    settings.HOSTS_SSH_KEY_FILE = ""
    GpuHost.objects.create(name="node-1", address="127.0.0.1", port=9, gpu=gpu, gpu_indices=[0], host_key="x")
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 1 hosts are not healthy"):
        call_command("hosts", "check", stdout=out)
    printed = out.getvalue()
    assert printed.startswith("checking 1 host: reading its inventory through the agent over SSH")
    assert "node-1 (root@127.0.0.1:9): unreachable" in printed
    assert "HOSTS_SSH_KEY_FILE is not set" in printed
    assert HostOperation.objects.filter(host__name="node-1", ok=False).count() == 1


def test_the_shops_missing_key_is_its_own_error(settings, shop_key):
    from gpurent.hosts.agent import shop_key_problem
    from gpurent.hosts.errors import ShopKeyMissing

    assert shop_key_problem() is None
    settings.HOSTS_SSH_KEY_FILE = ""
    assert "HOSTS_SSH_KEY_FILE is not set" in (shop_key_problem() or "")
    assert ShopKeyMissing.code == "host_shop_key_missing"
