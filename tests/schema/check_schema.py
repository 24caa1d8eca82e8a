#!/usr/bin/python3
"""Checks schema/effect.schema.json against the sample effects.

Usage: check_schema.py REPO_ROOT

1. The schema itself is a valid JSON Schema (draft 2020-12).
2. Every examples/effects/*.json validates against it (and there are at least eight).
3. Each deliberately wrong document below FAILS it, and fails at the place the mistake is, so a
   schema that accepted everything, or rejected the document for an unrelated reason, is caught.

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
    sys.exit("check_schema.py: python3-jsonschema is missing (apt-get install -y python3-jsonschema)")

# A small valid document the bad cases below are derived from; each case changes one thing.
BASE = {
    "version": 1,
    "name": "base",
    "emitters": [
        {
            "name": "sparks",
            "shape": {"type": "cone", "radius": 0.2, "angle_deg": 15},
            "init": {"lifetime_s": [0.5, 1], "speed": [2, 3]},
            "update": [
                {"type": "gravity"},
                {"type": "drag", "coefficient_per_s": 0.5},
            ],
            "render": {"alignment": "velocity_stretch"},
        }
    ],
}


def with_change(change):
    doc = copy.deepcopy(BASE)
    change(doc)
    return doc


def emitter(doc):
    return doc["emitters"][0]


# (what is wrong, the document, the JSON path (as jsonschema's json_path) the error must be at)
BAD_DOCUMENTS = [
    ("unknown top-level key",
     with_change(lambda d: d.update(speed=1)), "$"),
    ("unknown key in an emitter",
     with_change(lambda d: emitter(d).update(colour=[1, 1, 1, 1])), "$.emitters[0]"),
    ("missing version",
     with_change(lambda d: d.pop("version")), "$"),
    ("version 2",
     with_change(lambda d: d.update(version=2)), "$.version"),
    ("no emitters",
     with_change(lambda d: d.update(emitters=[])), "$.emitters"),
    ("emitter without a name",
     with_change(lambda d: emitter(d).pop("name")), "$.emitters[0]"),
    ("emitter name with a space",
     with_change(lambda d: emitter(d).update(name="two words")), "$.emitters[0].name"),
    ("wrong enum: space",
     with_change(lambda d: d.update(space="global")), "$.space"),
    ("wrong enum: blend",
     with_change(lambda d: emitter(d)["render"].update(blend="screen")),
     "$.emitters[0].render.blend"),
    ("negative spawn rate",
     with_change(lambda d: emitter(d).update(spawn={"rate_per_s": -5})),
     "$.emitters[0].spawn.rate_per_s"),
    ("number too large for float32",
     with_change(lambda d: emitter(d).update(spawn={"rate_per_s": 1e39})),
     "$.emitters[0].spawn.rate_per_s"),
    ("emitter capacity over kMaxEmitterCapacity",
     with_change(lambda d: emitter(d).update(capacity=(1 << 27) + 1)), "$.emitters[0].capacity"),
    ("burst repeating with interval 0",
     with_change(lambda d: emitter(d).update(
         spawn={"bursts": [{"cycles": 3, "interval_s": 0}]})),
     "$.emitters[0].spawn.bursts[0].interval_s"),
    ("unknown update module type",
     with_change(lambda d: emitter(d)["update"].append({"type": "magnetism"})),
     "$.emitters[0].update[2]"),
    ("wrong module field: a drag field on gravity",
     with_change(lambda d: emitter(d)["update"][0].update(coefficient_per_s=1)),
     "$.emitters[0].update[0]"),
    ("wrong module field type: gravity as a number",
     with_change(lambda d: emitter(d)["update"][0].update(acceleration=-9.81)),
     "$.emitters[0].update[0]"),
    ("module without a type",
     with_change(lambda d: emitter(d)["update"].append({"coefficient_per_s": 1})),
     "$.emitters[0].update[2]"),
    ("nine force fields",
     with_change(lambda d: emitter(d)["update"].extend([{"type": "force_field"}] * 9)),
     "$.emitters[0].update"),
    ("shape key of another type: radius on a box",
     with_change(lambda d: emitter(d).update(shape={"type": "box", "radius": 1})),
     "$.emitters[0].shape"),
    ("emit_from that the shape lacks: shell on a circle",
     with_change(lambda d: emitter(d).update(shape={"type": "circle", "emit_from": "shell"})),
     "$.emitters[0].shape.emit_from"),
    ("mesh shape without points",
     with_change(lambda d: emitter(d).update(shape={"type": "mesh"})), "$.emitters[0].shape"),
    ("cone angle of 90 degrees",
     with_change(lambda d: emitter(d)["shape"].update(angle_deg=90)),
     "$.emitters[0].shape.angle_deg"),
    ("render key of another type: width on a billboard",
     with_change(lambda d: emitter(d)["render"].update(width=0.3)), "$.emitters[0].render"),
    ("opaque billboard (opaque is for meshes only)",
     with_change(lambda d: emitter(d)["render"].update(blend="opaque")),
     "$.emitters[0].render"),
    ("17 particle lights",
     with_change(lambda d: emitter(d)["render"].update(lights={"count": 17})),
     "$.emitters[0].render.lights.count"),
    ("particle lights chosen by an unknown rule",
     with_change(lambda d: emitter(d)["render"].update(lights={"select": "nearest"})),
     "$.emitters[0].render.lights.select"),
    ("mesh render without a mesh path",
     with_change(lambda d: emitter(d).update(render={"type": "mesh"})), "$.emitters[0].render"),
    ("NUL in a texture path",
     with_change(lambda d: emitter(d)["render"].update(texture="spark\u0000.png")),
     "$.emitters[0].render.texture"),
    ("control character in the effect name",
     with_change(lambda d: d.update(name="fire\u001b")), "$.name"),
    ("zero lifetime",
     with_change(lambda d: emitter(d)["init"].update(lifetime_s=0)),
     "$.emitters[0].init.lifetime_s"),
    ("range with three numbers",
     with_change(lambda d: emitter(d)["init"].update(speed=[1, 2, 3])),
     "$.emitters[0].init.speed"),
    ("colour with three components",
     with_change(lambda d: emitter(d)["init"].update(color=[1, 0.5, 0])),
     "$.emitters[0].init.color"),
    ("curve key t outside [0, 1]",
     with_change(lambda d: emitter(d)["update"].append(
         {"type": "size_over_life", "curve": {"keys": [[0, 1], [1.5, 0]]}})),
     "$.emitters[0].update[2]"),
    ("negative size-over-life value",
     with_change(lambda d: emitter(d)["update"].append(
         {"type": "size_over_life", "curve": {"keys": [[0, 1], [1, -0.5]]}})),
     "$.emitters[0].update[2]"),
    ("alpha key above 1",
     with_change(lambda d: emitter(d)["update"].append(
         {"type": "color_over_life", "gradient": {"alpha_keys": [[0, 1.5]]}})),
     "$.emitters[0].update[2]"),
    ("zero collision-plane normal",
     with_change(lambda d: emitter(d)["update"].append(
         {"type": "collision", "planes": [{"normal": [0, 0, 0]}]})),
     "$.emitters[0].update[2]"),
    ("sub-emitter without its emitter",
     with_change(lambda d: emitter(d).update(sub_emitters=[{"event": "death"}])),
     "$.emitters[0].sub_emitters[0]"),
    ("sub-emitter count 0",
     with_change(lambda d: emitter(d).update(sub_emitters=[{"emitter": "x", "count": 0}])),
     "$.emitters[0].sub_emitters[0].count"),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_schema.py REPO_ROOT")
    root = sys.argv[1]
    with open(os.path.join(root, "schema", "effect.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []

    samples = sorted(glob.glob(os.path.join(root, "examples", "effects", "*.json")))
    if len(samples) < 8:
        failures.append(f"expected at least 8 sample effects, found {len(samples)}")
    for path in samples:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for error in validator.iter_errors(doc):
            failures.append(f"{os.path.relpath(path, root)}: {error.json_path}: {error.message}")

    base_errors = list(validator.iter_errors(BASE))
    if base_errors:
        failures.append(f"the base document is invalid: {base_errors[0].json_path}: "
                        f"{base_errors[0].message}")
    for what, doc, where in BAD_DOCUMENTS:
        paths = sorted({error.json_path for error in validator.iter_errors(doc)})
        if not paths:
            failures.append(f"bad document accepted: {what}")
        elif where not in paths:
            failures.append(f"bad document '{what}' rejected at {paths}, expected at {where}")

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(samples)} samples, {len(BAD_DOCUMENTS)} bad documents, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
