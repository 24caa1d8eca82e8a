#!/usr/bin/python3
"""Checks schema/scene.schema.json against the sample scenes.

Usage: check_scene_schema.py REPO_ROOT

1. The schema itself is a valid JSON Schema (draft 2020-12).
2. Every examples/scenes/*.json validates against it (and there are at least two).
3. Each deliberately wrong document below FAILS it, at the place the mistake is, so a schema
   that accepted everything, or rejected a document for an unrelated reason, is caught.

Needs Debian's python3-jsonschema (apt-get install -y python3-jsonschema).
"""
import copy
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("check_scene_schema.py: python3-jsonschema is missing "
             "(apt-get install -y python3-jsonschema)")

BASE = {
    "version": 1,
    "camera": {"position": [0, 2, 8], "target": [0, 1, 0]},
    "primitives": [{"type": "box", "size": [1, 2, 1]}, {"type": "sphere", "radius": 1}],
    "lights": [{"type": "point", "position": [0, 1, 0], "range": 5},
               {"type": "spot", "direction": [0, -1, 0], "inner_deg": 10, "outer_deg": 20}],
    "effects": [{"effect": "../effects/campfire.json", "name": "fire",
                 "path": {"keys": [[0, 0, 0, 0], [1, 1, 0, 0]]}}],
}


def with_change(change):
    doc = copy.deepcopy(BASE)
    change(doc)
    return doc


def instance(doc):
    return doc["effects"][0]


BAD_DOCUMENTS = [
    ("unknown top-level key", with_change(lambda d: d.update(frames=3)), "$"),
    ("missing version", with_change(lambda d: d.pop("version")), "$"),
    ("version 2", with_change(lambda d: d.update(version=2)), "$.version"),
    ("NUL in an effect path",
     with_change(lambda d: instance(d).update(effect="fire.json\u0000.png")),
     "$.effects[0].effect"),
    ("camera with both forms",
     with_change(lambda d: d["camera"].update(orbit={"radius": 3})), "$.camera"),
    ("camera with neither form", with_change(lambda d: d.update(camera={"fov_deg": 50})),
     "$.camera"),
    ("fov 180", with_change(lambda d: d["camera"].update(fov_deg=180)), "$.camera.fov_deg"),
    ("orbit radius 0", with_change(lambda d: d.update(camera={"orbit": {"radius": 0}})),
     "$.camera.orbit.radius"),
    ("resolution too small", with_change(lambda d: d.update(resolution=[1280, 8])),
     "$.resolution[1]"),
    ("negative background", with_change(lambda d: d.update(background=[0, -1, 0])),
     "$.background[1]"),
    ("sphere with size",
     with_change(lambda d: d["primitives"][1].update(size=[1, 1, 1])), "$.primitives[1]"),
    ("unknown primitive type",
     with_change(lambda d: d["primitives"][0].update(type="cone")), "$.primitives[0].type"),
    ("65 primitives", with_change(lambda d: d.update(primitives=[{"type": "box"}] * 65)),
     "$.primitives"),
    ("point light with a cone",
     with_change(lambda d: d["lights"][0].update(outer_deg=30)), "$.lights[0]"),
    ("unknown light type",
     with_change(lambda d: d["lights"][0].update(type="area")), "$.lights[0].type"),
    ("light range 0", with_change(lambda d: d["lights"][0].update(range=0)),
     "$.lights[0].range"),
    ("spot outer past 90", with_change(lambda d: d["lights"][1].update(outer_deg=91)),
     "$.lights[1].outer_deg"),
    ("65 lights", with_change(lambda d: d.update(lights=[{"type": "point"}] * 65)),
     "$.lights"),
    ("instance without effect", with_change(lambda d: instance(d).pop("effect")),
     "$.effects[0]"),
    ("instance name with a space", with_change(lambda d: instance(d).update(name="a b")),
     "$.effects[0].name"),
    ("path with one key",
     with_change(lambda d: instance(d)["path"].update(keys=[[0, 0, 0, 0]])),
     "$.effects[0].path.keys"),
    ("time_scale 0", with_change(lambda d: instance(d).update(time_scale=0)),
     "$.effects[0].time_scale"),
    ("pre-roll of 1e20 s", with_change(lambda d: instance(d).update(start_s=-1e20)),
     "$.effects[0].start_s"),
    ("pre-roll past a day", with_change(lambda d: instance(d).update(start_s=-86401)),
     "$.effects[0].start_s"),
    ("start after the longest scene", with_change(lambda d: instance(d).update(start_s=3601)),
     "$.effects[0].start_s"),
    ("fps 0", with_change(lambda d: d.update(fps=0)), "$.fps"),
]


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "schema/scene.schema.json")) as f:
        schema = json.load(f)
    validator_class = jsonschema.Draft202012Validator
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failures = []

    samples = sorted(glob.glob(os.path.join(root, "examples/scenes/*.json")))
    if len(samples) < 2:
        failures.append(f"expected at least 2 sample scenes, found {len(samples)}")
    for path in samples:
        with open(path) as f:
            doc = json.load(f)
        for error in validator.iter_errors(doc):
            failures.append(f"{path}: {error.json_path}: {error.message}")
    errors = list(validator.iter_errors(BASE))
    if errors:
        failures.append(f"the base document fails: {errors[0].json_path}: {errors[0].message}")

    for what, doc, where in BAD_DOCUMENTS:
        paths = {e.json_path for e in validator.iter_errors(doc)}
        if not paths:
            failures.append(f"{what}: accepted, expected an error at {where}")
        elif where not in paths:
            failures.append(f"{what}: errors at {sorted(paths)}, expected one at {where}")

    for failure in failures:
        print(failure)
    print(f"{len(samples)} samples, {len(BAD_DOCUMENTS)} bad documents, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
