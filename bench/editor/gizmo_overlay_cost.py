#!/usr/bin/env python3
"""What the gizmos cost a preview frame: `spindrift edit` on an empty temporary folder previews a
template paused at 2 s, and frames are drawn with the gizmos on and off in turn (each toggle
redraws the paused frame); prints the medians of the session's own render and GPU milliseconds
(the statistics' ms.render and ms.gpu) each way, and the overlay's segment count.
docs/benchmarks.md, "Gizmos: the line overlay", has the figures.

    python3 bench/editor/gizmo_overlay_cost.py build/bin/spindrift [template] [frames]
"""
import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile


def main():
    cli = sys.argv[1]
    template = sys.argv[2] if len(sys.argv) > 2 else "smoke"
    frames = int(sys.argv[3]) if len(sys.argv) > 3 else 24
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen([cli, "edit", folder], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        port = None
        for line in proc.stdout:
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break

        def request(method, path, body=None):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request(method, path, body=body)
            r = c.getresponse()
            data = r.read()
            stats = r.getheader("X-Spindrift-Stats")
            c.close()
            if r.status >= 300:
                raise RuntimeError(f"{method} {path}: {r.status} {data[:200]!r}")
            return data, stats

        try:
            text = json.loads(request("GET", "/api/template?name=" + template)[0])["text"]
            request("POST", "/api/file?path=t.json&create=1", text)
            request("POST", "/api/preview/document?path=t.json", text)
            request("POST", "/api/preview/control?action=seek&t=2")
            name = json.loads(text)["emitters"][0]["name"]
            runs = {"off": [], "on": []}
            for i in range(frames + 4):
                on = i % 2 == 1
                request("POST", f"/api/preview/control?action=gizmos&on={int(on)}&selected={name}")
                s = json.loads(request("GET", "/api/preview/frame")[1])
                if i >= 4:  # the first frames make pipelines
                    runs["on" if on else "off"].append(s)
            for key, rows in runs.items():
                render = statistics.median(s["ms"]["render"] for s in rows)
                gpu = statistics.median(s["ms"]["gpu"] for s in rows)
                print(f"{template}, gizmos {key}: render {render:.1f} ms, gpu {gpu:.1f} ms "
                      f"(medians of {len(rows)}), {rows[0]['gizmos']['lines']} segments")
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
