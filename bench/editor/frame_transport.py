#!/usr/bin/env python3
"""Frames per second of the editor's preview as the page receives them: one PNG per request
(GET /api/preview/frame on one keep-alive connection, the next request as soon as the previous
frame arrived, as the page polls) while a template plays at 640x360 on the CPU backend; then,
paused (the server returns its last frame without drawing), the milliseconds a request costs on
its own. Starts `spindrift edit` on an empty temporary folder. docs/benchmarks.md, "Editor frame
transport", has the figures, and those of the multipart frame stream polling was compared with
(this script's previous version, against GET /api/preview/stream of 55f5548, since removed: it
gained nothing measurable once the server stopped waiting for delayed acknowledgements).

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


def request_ms(port, seconds):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    n = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        c.request("GET", "/api/preview/frame")
        c.getresponse().read()
        n += 1
    c.close()
    return (time.monotonic() - start) * 1000.0 / n


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
                print(f"{template} {seconds:.0f} s playing: {p / seconds:.1f} fps")
            request(port, "POST", "/api/preview/control?action=pause")
            poll(port, 1)
            print(f"paused: {request_ms(port, 3):.2f} ms a request")
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
