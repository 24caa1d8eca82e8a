#!/usr/bin/env python3
"""Frames per second of the editor's preview as the page receives them, two ways: one PNG per
request (GET /api/preview/frame, one keep-alive connection, the next request as soon as the
previous frame arrived, as the page polls) and the frame stream (GET /api/preview/stream,
multipart/x-mixed-replace, each part read by its Content-Length). Starts `spindrift edit` on an
empty temporary folder, previews a template playing at 640x360 on the CPU backend, and prints
the frames each way received in the same time, alternating runs so that both see the same machine
load. docs/benchmarks.md, "Editor frame transport", has the figures.

    python3 bench/editor/frame_transport.py build/bin/spindrift [seconds] [template] [rounds]
"""
import http.client
import json
import re
import subprocess
import sys
import tempfile
import time


def start_server(cli, folder):
    proc = subprocess.Popen([cli, "edit", folder], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    for line in proc.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, int(m.group(1))
    raise RuntimeError("spindrift edit printed no address")


def request(port, method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request(method, path, body=body)
    r = c.getresponse()
    data = r.read()
    c.close()
    if r.status >= 300:
        raise RuntimeError(f"{method} {path}: {r.status} {data[:200]!r}")
    return data


def poll(port, seconds):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    frames = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        c.request("GET", "/api/preview/frame")
        r = c.getresponse()
        r.read()
        frames += r.status == 200
    c.close()
    return frames


def stream(port, seconds):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", "/api/preview/stream")
    r = c.getresponse()
    assert r.status == 200 and r.getheader("Content-Type").startswith("multipart/x-mixed-replace")
    frames = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        headers = {}
        line = r.readline()
        while line in (b"\r\n", b""):
            line = r.readline()
        assert line.startswith(b"--"), line
        while True:
            line = r.readline().rstrip(b"\r\n")
            if not line:
                break
            key, _, value = line.partition(b":")
            headers[key.strip().lower()] = value.strip()
        png = r.read(int(headers[b"content-length"]))
        assert png[1:4] == b"PNG"
        json.loads(headers[b"x-spindrift-stats"])
        frames += 1
    c.close()  # the server sees the client gone at its next write
    return frames


def main():
    cli = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10
    template = sys.argv[3] if len(sys.argv) > 3 else "smoke"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    with tempfile.TemporaryDirectory() as folder:
        proc, port = start_server(cli, folder)
        try:
            text = json.loads(request(port, "GET", "/api/template?name=" + template))["text"]
            request(port, "POST", "/api/file?path=t.json&create=1", text)
            request(port, "POST", "/api/preview/document?path=t.json", text)
            request(port, "POST", "/api/preview/control?action=play")
            poll(port, 2)  # warm: pipelines, textures, the first steps
            for _ in range(rounds):
                p = poll(port, seconds)
                s = stream(port, seconds)
                print(f"{template} {seconds:.0f} s: png per request {p / seconds:.1f} fps, "
                      f"stream {s / seconds:.1f} fps")
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
