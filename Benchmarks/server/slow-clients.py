#!/usr/bin/env python3
"""Slow clients for attack-bench.sh: connections that trickle a request head a byte at a time.

    slow-clients.py HOST PORT CONNECTIONS SECONDS [--addresses N] [--every S]

Keeps CONNECTIONS connections open from N loopback addresses (127.0.0.2 on), each sending one
more byte of a request head every S seconds (default 5) and never finishing it; a connection
the server closes is opened again at once. After SECONDS prints one line:

    slow-result connections=N seconds=S opened=N closed_by_server=N connect_failures=N
        longest_open_s=F answered=N

`answered` counts connections that got any bytes back (a 4xx before closing, say)."""
import argparse
import selectors
import socket
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("connections", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--addresses", type=int, default=5)
    parser.add_argument("--every", type=float, default=5.0)
    args = parser.parse_args()

    head = b"GET /api/v1/catalogs HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 100000
    selector = selectors.DefaultSelector()
    stats = {"opened": 0, "closed": 0, "failures": 0, "answered": 0, "longest": 0.0}
    clients = {}  # socket -> [opened_at, bytes_sent, next_send, answered]

    def open_one(index):
        source = f"127.0.0.{2 + index % args.addresses}"
        sock = socket.socket()
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            sock.connect_ex((args.host, args.port))
        except OSError:
            stats["failures"] += 1
            sock.close()
            return
        now = time.monotonic()
        clients[sock] = [now, 0, now, False, index]
        selector.register(sock, selectors.EVENT_READ)
        stats["opened"] += 1

    for index in range(args.connections):
        open_one(index)
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        now = time.monotonic()
        for sock, state in list(clients.items()):
            if now >= state[2]:
                try:
                    sent = sock.send(head[state[1] : state[1] + 1])
                    state[1] += sent
                except BlockingIOError:
                    pass
                except OSError:
                    pass
                state[2] = now + args.every
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            state = clients.get(sock)
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data:
                state[3] = True
                continue
            stats["closed"] += 1
            stats["answered"] += 1 if state[3] else 0
            stats["longest"] = max(stats["longest"], time.monotonic() - state[0])
            selector.unregister(sock)
            sock.close()
            del clients[sock]
            open_one(state[4])
    for sock, state in clients.items():
        stats["longest"] = max(stats["longest"], time.monotonic() - state[0])
        sock.close()
    print(
        f"slow-result connections={args.connections} seconds={args.seconds:g} opened={stats['opened']}"
        f" closed_by_server={stats['closed']} connect_failures={stats['failures']}"
        f" longest_open_s={stats['longest']:.1f} answered={stats['answered']}"
    )


if __name__ == "__main__":
    main()
