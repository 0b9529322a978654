"""The reference for `tally validate`: the same recording validated with jsonschema-rs, end to end.

Reads a Tally recording (JSON Lines) line by line, parses each line with Python's json module, looks up
the JSON Schema of the event's name and validates the event's properties with jsonschema-rs (Draft 2020-12,
formats checked), collecting the errors of each failing event. Prints one line of JSON with the counts, so
the harness (Sources/ValidateComparison) can check that both tools found the same failing events.

    python validate_jsonschema_rs.py SCHEMAS.json RECORDING.jsonl

SCHEMAS.json maps each planned event name to the JSON Schema of its properties; the harness writes it from
the same plan it gives `tally validate`.
"""
import json
import sys

import jsonschema_rs


def main(schemas_path, recording_path):
    with open(schemas_path) as file:
        schemas = json.load(file)
    validators = {
        name: jsonschema_rs.Draft202012Validator(schema, validate_formats=True) for name, schema in schemas.items()
    }
    checked = failing = violations = unreadable = 0
    with open(recording_path, "rb") as recording:
        for line in recording:
            try:
                record = json.loads(line)
            except ValueError:
                unreadable += 1
                continue
            checked += 1
            validator = validators.get(record.get("name"))
            if validator is None:
                failing += 1
                violations += 1
                continue
            properties = record.get("properties", {})
            if not validator.is_valid(properties):
                failing += 1
                violations += sum(1 for _ in validator.iter_errors(properties))
    print(json.dumps({"checked": checked, "failing": failing, "violations": violations, "unreadable": unreadable}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
