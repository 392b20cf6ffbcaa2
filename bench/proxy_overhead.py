"""How much time the fault proxy adds to one API call.

Starts moto and a Proxy in this process, then makes N identical cheap calls
(STS GetCallerIdentity by default) straight to moto and through the proxy,
interleaved so both see the same machine load. Clients keep their connection
alive; moto (werkzeug) closes its side after every answer, so both paths pay
one loopback connect per call to moto. Client, proxy and moto share one
process (and its GIL), as they do in a pytest run: the worst case for the
proxy. Prints the median per-call time each way, the added milliseconds per
call and the ratio::

    PYTHONPATH=. python bench/proxy_overhead.py            # raw HTTP client, N=300
    PYTHONPATH=. python bench/proxy_overhead.py --client boto3 -n 500 --call ec2
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from pytest_converge.emulator import FAKE_ACCESS_KEY, FAKE_SECRET_KEY, MotoEmulator
from pytest_converge.faults import Proxy

# service -> (form body, expected marker in the answer)
CALLS = {
    "sts": (b"Action=GetCallerIdentity&Version=2011-06-15", b"GetCallerIdentityResult"),
    "ec2": (b"Action=DescribeVpcs&Version=2016-11-15", b"DescribeVpcsResponse"),
}


def raw_caller(endpoint: str, service: str) -> Callable[[], None]:
    """One keep-alive connection sending a pre-built query-protocol request."""
    split = urlsplit(endpoint)
    conn = http.client.HTTPConnection(split.hostname, split.port, timeout=30)
    body, marker = CALLS[service]
    headers = {
        "Authorization": (
            f"AWS4-HMAC-SHA256 Credential={FAKE_ACCESS_KEY}/20240101/us-east-1/{service}/"
            "aws4_request, SignedHeaders=host, Signature=0"
        ),
        "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
    }

    def call() -> None:
        conn.request("POST", "/", body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        if response.status != 200 or marker not in data:
            raise SystemExit(f"unexpected answer {response.status}: {data[:200]!r}")

    return call


def boto3_caller(endpoint: str, service: str) -> Callable[[], None]:
    """A boto3 client making the same call (adds botocore's own per-call cost to both paths)."""
    import boto3
    from botocore.config import Config

    client = boto3.session.Session(
        aws_access_key_id=FAKE_ACCESS_KEY,
        aws_secret_access_key=FAKE_SECRET_KEY,
        region_name="us-east-1",
    ).client(service, endpoint_url=endpoint, config=Config(retries={"total_max_attempts": 1}))
    return client.get_caller_identity if service == "sts" else client.describe_vpcs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300, help="calls each way (default 300)")
    parser.add_argument("--call", choices=sorted(CALLS), default="sts", help="which cheap call")
    parser.add_argument("--client", choices=("raw", "boto3"), default="raw")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls each way first")
    args = parser.parse_args()

    make = raw_caller if args.client == "raw" else boto3_caller
    emulator = MotoEmulator()
    emulator.start()
    proxy = Proxy(upstream=emulator.endpoint)
    proxy.start()
    try:
        direct = make(emulator.endpoint, args.call)
        proxied = make(proxy.endpoint, args.call)
        for _ in range(args.warmup):
            direct()
            proxied()
        times: dict[str, list[float]] = {"direct": [], "proxied": []}
        for i in range(args.n):
            # Alternate which goes first so neither always gets a warm cache.
            order = (("direct", direct), ("proxied", proxied))
            for name, call in order if i % 2 == 0 else order[::-1]:
                t0 = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - t0)
        proxy.clear()  # the recording is not what is measured
    finally:
        proxy.stop()
        emulator.stop()

    d = statistics.median(times["direct"]) * 1000
    p = statistics.median(times["proxied"]) * 1000
    d90 = statistics.quantiles(times["direct"], n=10)[-1] * 1000
    p90 = statistics.quantiles(times["proxied"], n=10)[-1] * 1000
    print(f"{args.n} x {args.call} ({args.client} client), interleaved, one process")
    print(f"  direct to moto : median {d:7.3f} ms   p90 {d90:7.3f} ms")
    print(f"  through proxy  : median {p:7.3f} ms   p90 {p90:7.3f} ms")
    print(f"  added per call : {p - d:+7.3f} ms (median)   ratio {p / d:.2f}x")


if __name__ == "__main__":
    main()
