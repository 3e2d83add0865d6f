"""Local chain nodes for the watcher tests: Litecoin Core in regtest, started on free ports with a throwaway
data directory, and stopped at the end. Waiting is on conditions (the RPC answering), never on guessed sleeps.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn

import pytest

from gpurent.chains.rpc import JsonRpcClient, RpcError

RPC_USER, RPC_PASSWORD = "gpurent", "regtest-only-password"


def skip_or_fail(reason: str) -> NoReturn:
    """CI installs the nodes and sets CHAIN_NODES_REQUIRED=1: there a missing node fails instead of skipping."""
    if os.environ.get("CHAIN_NODES_REQUIRED") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LitecoinRegtest:
    """A running `litecoind -regtest`: a `miner` wallet with spendable coins and a watch-only `watch` wallet."""

    def __init__(self) -> None:
        binary = shutil.which("litecoind")
        if binary is None:
            skip_or_fail("litecoind is not installed (apt-get install litecoind; .ci/run installs it)")
        self.datadir = Path(tempfile.mkdtemp(prefix="gpurent-ltc-"))
        self.rpc_port = free_port()
        self.process = subprocess.Popen(
            [
                binary,
                "-regtest",
                f"-datadir={self.datadir}",
                f"-rpcport={self.rpc_port}",
                "-rpcbind=127.0.0.1",
                "-rpcallowip=127.0.0.1",
                f"-rpcuser={RPC_USER}",
                f"-rpcpassword={RPC_PASSWORD}",
                "-listen=0",
                "-server=1",
                "-fallbackfee=0.0001",
                "-mempoolreplacement=1",  # BIP125 replacement, on by default in Bitcoin Core (off in Litecoin's)
                "-printtoconsole=0",
                "-disablewallet=0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.node = self.client()
        self._wait_until_ready()
        self.node.call("createwallet", "miner")
        self.node.call("createwallet", "watch", True, True)  # watch-only: no private keys, blank
        self.miner = self.client("miner")
        self.mine_address = self.miner.call("getnewaddress", "", "bech32")
        self.mine(101)  # coinbase outputs mature after 100 blocks

    def client(self, wallet: str | None = None) -> JsonRpcClient:
        path = f"/wallet/{wallet}" if wallet else "/"
        return JsonRpcClient(f"http://{RPC_USER}:{RPC_PASSWORD}@127.0.0.1:{self.rpc_port}{path}")

    def _wait_until_ready(self) -> None:
        # The node answers -28 ("Loading…") and refuses connections while it starts; poll until it answers.
        for _attempt in range(600):
            if self.process.poll() is not None:
                raise RuntimeError(f"litecoind exited with {self.process.returncode}")
            try:
                self.node.call("getblockchaininfo")
                return
            except RpcError:
                time.sleep(0.1)
        raise RuntimeError("litecoind did not answer RPC")

    def mine(self, blocks: int = 1) -> list[str]:
        return list(self.node.call("generatetoaddress", blocks, self.mine_address))

    def send(self, address: str, amount: Decimal, *, replaceable: bool = False) -> str:
        """Pay from the miner's wallet; `replaceable` signals BIP125, so `bumpfee` may replace it."""
        return str(self.miner.call("sendtoaddress", address, str(amount), "", "", False, replaceable))

    def double_spend(self, txid: str) -> str:
        """Mine, in a block of its own, a transaction spending the same inputs as `txid` (in the mempool) back
        to the miner: `txid` can then never be mined (the wallet reports it conflicted). Its id."""
        spent = self.call("getrawtransaction", txid, True)["vin"]
        inputs = [{"txid": row["txid"], "vout": row["vout"]} for row in spent]
        value = Decimal(0)
        for row in spent:  # the miner's own coins: its wallet has the transactions that made them
            previous = self.call("decoderawtransaction", self.miner.call("gettransaction", row["txid"])["hex"])
            value += Decimal(str(previous["vout"][row["vout"]]["value"]))
        raw = self.miner.call("createrawtransaction", inputs, {self.mine_address: str(value - Decimal("0.001"))})
        signed = self.miner.call("signrawtransactionwithwallet", raw)
        assert signed["complete"], signed
        self.call("generateblock", self.mine_address, [signed["hex"]])
        return str(self.call("decoderawtransaction", signed["hex"])["txid"])

    def call(self, method: str, *params: Any) -> Any:
        return self.node.call(method, *params)

    def stop(self) -> None:
        try:
            self.node.call("stop")
            self.process.wait(timeout=60)
        except (RpcError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.datadir, ignore_errors=True)


ROOT = Path(__file__).resolve().parents[3]
NODE_TOOLS = ROOT / "tools" / "chain-nodes"
TOKEN_SOURCE = Path(__file__).with_name("TestToken.sol")


class Ganache:
    """A local Ethereum node (`ganache` from npm, installed under tools/chain-nodes by .ci/run or
    scripts/ensure-chain-nodes.sh): deterministic funded accounts, a block per transaction, `evm_mine`."""

    def __init__(self) -> None:
        binary = NODE_TOOLS / "node_modules" / ".bin" / "ganache"
        if not binary.exists() or shutil.which("node") is None:
            skip_or_fail("ganache is not installed: run scripts/ensure-chain-nodes.sh (.ci/run does)")
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                str(binary),
                "--server.host=127.0.0.1",
                f"--server.port={self.port}",
                "--wallet.deterministic=true",
                "--logging.quiet=true",
                "--chain.chainId=1337",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.node = JsonRpcClient(f"http://127.0.0.1:{self.port}")
        for _attempt in range(1200):
            if self.process.poll() is not None:
                raise RuntimeError(f"ganache exited with {self.process.returncode}")
            try:
                self.node.call("eth_blockNumber")
                break
            except RpcError:
                time.sleep(0.1)
        else:
            raise RuntimeError("ganache did not answer RPC")
        self.payer = self.node.call("eth_accounts")[0]

    def call(self, method: str, *params: Any) -> Any:
        return self.node.call(method, *params)

    def mine(self, blocks: int = 1) -> None:
        for _block in range(blocks):
            self.node.call("evm_mine")

    def transact(self, **fields: Any) -> str:
        """Send a transaction from the funded account; ganache mines it in its own block at once."""
        txid = str(self.node.call("eth_sendTransaction", {"from": self.payer, **fields}))
        receipt = self.node.call("eth_getTransactionReceipt", txid)
        assert receipt is not None
        assert int(receipt["status"], 16) == 1, receipt
        return txid

    def deploy_token(self, supply: int) -> str:
        """Compile TestToken.sol with solc from npm and deploy it; its address."""
        script = (
            "const solc=require('solc');const fs=require('fs');"
            "const input={language:'Solidity',sources:{'T.sol':{content:fs.readFileSync(process.argv[1],'utf8')}},"
            "settings:{evmVersion:'paris',outputSelection:{'*':{'*':['evm.bytecode.object']}}}};"
            "const out=JSON.parse(solc.compile(JSON.stringify(input)));"
            "process.stdout.write(out.contracts['T.sol'].TestToken.evm.bytecode.object);"
        )
        bytecode = subprocess.run(
            [str(shutil.which("node")), "-e", script, str(TOKEN_SOURCE)],
            cwd=NODE_TOOLS,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        txid = str(
            self.node.call(
                "eth_sendTransaction",
                {"from": self.payer, "gas": hex(3_000_000), "data": "0x" + bytecode + f"{supply:064x}"},
            )
        )
        return str(self.node.call("eth_getTransactionReceipt", txid)["contractAddress"])

    def token_transfer(self, token: str, to: str, amount: int) -> str:
        selector = "a9059cbb"  # transfer(address,uint256)
        return self.transact(
            to=token, gas=hex(200_000), data="0x" + selector + to.lower()[2:].rjust(64, "0") + f"{amount:064x}"
        )

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
