"""The hotspot as a phone sees it: a "phone" in its own network namespace, joined to the
table's namespace by a veth pair (the Wi-Fi link), with the table's address as its DNS
server (what the hotspot's DHCP hands out).

The table side runs what the Pi runs in hotspot mode: dnsmasq with the installer's
``dnsmasq-shared.d`` file (NetworkManager's shared mode reads that folder), the installer's
nftables rules (port 80 to the dashboard) and the real dashboard. The phone checks that any
name resolves to the table and that the connectivity-check URLs of Android, Apple, Windows
and Firefox lead to the table page.

Needs root where ``ip netns add`` works, dnsmasq and nft (``scripts/bootstrap.sh test``
installs them as root); skipped with the reason otherwise. Every wait is on a condition
(a line printed, a name answered), with a safety timeout of minutes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.systemd.kernel import netns_unavailable, nft_unavailable
from tests.wait import until

ROOT = Path(__file__).resolve().parents[2]
TABLE_IP = "10.42.0.1"
PHONE_IP = "10.42.0.17"
PORT = 8080
SAFETY_S = 180.0
CHECK_URLS = [
    "http://connectivitycheck.gstatic.com/generate_204",  # Android
    "http://clients3.google.com/generate_204",
    "http://www.google.com/gen_204",
    "http://captive.apple.com/hotspot-detect.html",  # iPhone, Mac
    "http://www.apple.com/library/test/success.html",
    "http://www.msftconnecttest.com/connecttest.txt",  # Windows
    "http://www.msftconnecttest.com/redirect",
    "http://www.msftncsi.com/ncsi.txt",
    "http://detectportal.firefox.com/canonical.html",  # Firefox
    "http://detectportal.firefox.com/success.txt",
    "http://any-name.example/some/page",
]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def unavailable() -> str | None:
    if os.geteuid() != 0:
        return "needs root (network namespaces)"
    for tool, package in (("ip", "iproute2"), ("dnsmasq", "dnsmasq-base"), ("nft", "nftables")):
        if shutil.which(tool) is None:
            return f"needs {tool} (apt-get install {package}; scripts/bootstrap.sh test does)"
    return netns_unavailable() or nft_unavailable()


def sh(*cmd: str) -> str:
    res = subprocess.run(list(cmd), capture_output=True, text=True, timeout=SAFETY_S)
    assert res.returncode == 0, f"{' '.join(cmd)}: {res.stderr}"
    return res.stdout


@dataclass
class Net:
    table: str
    phone: str
    root: Path  # the installer's files, written by systemd/network.sh


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Net]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    pid = os.getpid()
    n = Net(f"tct{pid}", f"tcp{pid}", tmp_path_factory.mktemp("installed"))
    resolv = Path("/etc/netns") / n.phone
    veth_t, veth_p = f"tca{pid}"[:15], f"tcb{pid}"[:15]
    try:
        for ns in (n.table, n.phone):
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "link", "add", veth_t, "type", "veth", "peer", "name", veth_p)
        sh("ip", "link", "set", veth_t, "netns", n.table)
        sh("ip", "link", "set", veth_p, "netns", n.phone)
        sh("ip", "-n", n.table, "addr", "add", f"{TABLE_IP}/24", "dev", veth_t)
        sh("ip", "-n", n.phone, "addr", "add", f"{PHONE_IP}/24", "dev", veth_p)
        sh("ip", "-n", n.table, "link", "set", veth_t, "up")
        sh("ip", "-n", n.phone, "link", "set", veth_p, "up")
        sh("ip", "-n", n.phone, "route", "add", "default", "via", TABLE_IP)
        # what the hotspot's DHCP tells a phone: the table is the DNS server
        resolv.mkdir(parents=True, exist_ok=True)
        (resolv / "resolv.conf").write_text(f"nameserver {TABLE_IP}\noptions timeout:5\n")
        sh("bash", str(ROOT / "systemd/network.sh"), "--root", str(n.root), "--port",
           str(PORT), "--keep-hostname")
        sh("ip", "netns", "exec", n.table, "nft", "-f",
           str(n.root / "etc/table-companion/port80.nft"))
        yield n
    finally:
        subprocess.run(["ip", "netns", "del", n.table], capture_output=True)
        subprocess.run(["ip", "netns", "del", n.phone], capture_output=True)
        shutil.rmtree(resolv, ignore_errors=True)


@pytest.fixture(scope="module")
def dnsmasq(net: Net) -> Iterator[subprocess.Popen[str]]:
    """dnsmasq as NetworkManager runs it for a shared connection: the installer's folder."""
    log = (net.root / "dnsmasq.log").open("w")
    proc = subprocess.Popen(
        ["ip", "netns", "exec", net.table, "dnsmasq", "--keep-in-foreground", "--no-resolv",
         "--no-hosts", "--bind-interfaces", f"--listen-address={TABLE_IP}", "--user=root",
         "--pid-file=", "--log-facility=-",
         f"--conf-dir={net.root / 'etc/NetworkManager/dnsmasq-shared.d'}"],
        stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_dns(net)
        yield proc
    finally:
        proc.terminate()
        proc.wait(SAFETY_S)
        log.close()


def wait_for_dns(net: Net) -> None:
    """Until the phone's resolver answers (each try waits on the resolver's own timeout)."""
    code = "import socket; socket.getaddrinfo('ready.example', 80, socket.AF_INET)"
    errors: list[str] = []

    def answered() -> bool:
        res = subprocess.run(["ip", "netns", "exec", net.phone, sys.executable, "-c", code],
                             capture_output=True, text=True, timeout=SAFETY_S)
        errors[:] = [res.stderr[-500:]]
        return res.returncode == 0

    try:  # a pause between tries only; readiness is the answer itself
        until(answered, "dnsmasq to answer the phone's resolver", poll=0.2)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; last error: {errors[-1] if errors else ''}") from None


@pytest.fixture(scope="module")
def dashboard(net: Net, tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[dict[str, object]]:
    state = tmp_path_factory.mktemp("table-state")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        ["ip", "netns", "exec", net.table, sys.executable, "-m", "tests.systemd.netns_table",
         str(state), str(PORT)], cwd=ROOT, env=env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    line = proc.stdout.readline()  # printed once the dashboard listens
    assert line, proc.stderr.read() if proc.stderr else "the dashboard did not start"
    try:
        yield json.loads(line)
    finally:
        proc.stdin.close()
        proc.wait(SAFETY_S)
        proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()


def phone(net: Net, *urls: str) -> list[dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(["ip", "netns", "exec", net.phone, sys.executable, "-m",
                          "tests.systemd.netns_phone", *urls], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return list(json.loads(out.stdout))


def test_any_name_resolves_to_the_table(net: Net, dnsmasq: object) -> None:
    code = ("import socket, json; print(json.dumps(sorted({a[4][0] for n in "
            "('connectivitycheck.gstatic.com', 'captive.apple.com', 'table.local.example', "
            "'x.y.z.invalid') for a in socket.getaddrinfo(n, 80, socket.AF_INET)})))")
    out = sh("ip", "netns", "exec", net.phone, sys.executable, "-c", code)
    assert json.loads(out) == [TABLE_IP]


def test_the_connectivity_checks_lead_to_the_table_page(
        net: Net, dnsmasq: object, dashboard: dict[str, object]) -> None:
    assert dashboard["mode"] == "hotspot"
    results = phone(net, *CHECK_URLS)
    for r in results:
        assert "error" not in r, r
        assert r["resolved"] == [TABLE_IP], r
        assert (r["first"], r["location"]) == (302, f"http://{TABLE_IP}/"), r
        assert r["status"] == 200, r
        body = str(r["body"])
        assert 'id="live"' in body and "data-stream=\"/api/stream?html=1\"" in body, r["url"]


def test_the_tables_own_address_answers_normally(
        net: Net, dnsmasq: object, dashboard: dict[str, object]) -> None:
    own = phone(net, f"http://{TABLE_IP}/generate_204", f"http://{TABLE_IP}:{PORT}/")
    assert (own[0]["first"], own[0]["status"]) == (204, 204)  # port 80: through nftables
    assert own[1]["first"] == 200 and 'id="live"' in str(own[1]["body"])
    ssid = str(dashboard["ssid"])
    tv = phone(net, f"http://{TABLE_IP}/?tv=1")[0]
    assert "Join the table's Wi-Fi</b>" in str(tv["body"]) and ssid in str(tv["body"])
