"""A real S3-compatible server for the Python package's tests: moto's server mode
(``moto_server``, PyPI ``moto[server]`` 5.2.1, installed by scripts/setup.sh, as for the
Rust host's and the npm package's tests: host-tokio/tests/s3/moto.rs,
host-node/test/s3/moto.ts) on a free port of 127.0.0.1, its buckets created, killed (by
its process id) when stopped. Objects are read back with plain HTTP: moto accepts
requests with any credentials unless its authentication is turned on (an anonymous
``GetObject`` is refused by the bucket's private ACL, so each request names the key
``test`` with a signature moto does not check)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from typing import Optional

S3 = "{http://s3.amazonaws.com/doc/2006-03-01/}"
AUTH = "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Moto:
    """A running moto server."""

    def __init__(self, *buckets: str) -> None:
        exe = shutil.which("moto_server")
        if exe is None:
            raise RuntimeError("moto_server not found (pip install 'moto[server]==5.2.1'; make test runs scripts/setup.sh)")
        port = free_port()
        self.endpoint = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [exe, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.request("PUT", f"/{buckets[0] if buckets else 'moto-ready'}")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("moto_server did not start")
                time.sleep(0.1)
        for bucket in buckets[1:]:
            self.request("PUT", f"/{bucket}")

    @property
    def env(self) -> dict[str, str]:
        """The environment the extension's object store configures itself from."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "AWS_REGION": "us-east-1",
        }

    def request(self, method: str, path: str) -> bytes:
        req = urllib.request.Request(self.endpoint + path, method=method, headers={"Authorization": AUTH})
        with urllib.request.urlopen(req, timeout=30) as res:
            return bytes(res.read())

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        """Every key under ``prefix`` (ListObjectsV2, every page), as stored."""
        keys: list[str] = []
        token: Optional[str] = None
        while True:
            query = {"list-type": "2", "prefix": prefix}
            if token:
                query["continuation-token"] = token
            root = ET.fromstring(self.request("GET", f"/{bucket}?{urllib.parse.urlencode(query)}"))
            keys += [c.findtext(f"{S3}Key") or "" for c in root.iter(f"{S3}Contents")]
            token = root.findtext(f"{S3}NextContinuationToken")
            if not token:
                return keys

    def get(self, bucket: str, key: str) -> bytes:
        return self.request("GET", f"/{bucket}/{urllib.parse.quote(key)}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def files_in(moto: Moto, bucket: str, prefix: str) -> dict[str, str]:
    """Every object under ``prefix/`` by virtual path (``/`` + the rest of its key, each
    segment percent-decoded as ``object_store`` encodes it), in byte order: what
    steps.files_under gives for a directory."""
    found = {}
    for key in moto.keys(bucket, prefix + "/"):
        rest = key[len(prefix):]
        path = "/".join(urllib.parse.unquote(seg) for seg in rest.split("/"))
        found[path] = moto.get(bucket, key).decode("utf-8")
    return dict(sorted(found.items(), key=lambda kv: kv[0].encode("utf-8", "surrogatepass")))


def set_env(env: dict[str, str]) -> dict[str, Optional[str]]:
    """Set ``env`` in this process (the extension reads it); what was there before."""
    before = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    return before


def restore_env(before: dict[str, Optional[str]]) -> None:
    for k, v in before.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def require_auth(moto: Moto) -> None:
    """Check every request's credentials from now on, as S3 does (moto's
    ``/moto-api/reset-auth``, for this server only): moto then knows no access key, so
    every request is refused with ``403 InvalidAccessKeyId``."""
    req = urllib.request.Request(
        moto.endpoint + "/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "text/plain"}
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        assert res.status == 200
