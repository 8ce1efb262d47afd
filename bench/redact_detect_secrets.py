"""Yelp's detect-secrets on issue 49's cases (bench/redact.mjs runs it in the venv
`make bench` makes). Reads the cases `redact_bench` wrote, scans each text as its own
`.txt` file with the default plugins and filters, prints one JSON object: how many
generated secrets it reports (a finding whose value holds the secret or is part of it:
its GitHub and GitLab plugins report the prefix, `ghp`) and how many look-alikes it
flags (any finding).

    python bench/redact_detect_secrets.py target/bench/redact-cases.json
"""

import json
import os
import sys
import tempfile

from detect_secrets.__version__ import VERSION
from detect_secrets import SecretsCollection
from detect_secrets.settings import default_settings


def findings(texts):
    """The values detect-secrets reports in each text, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for i, text in enumerate(texts):
            names.append(f"case-{i:04}.txt")
            with open(os.path.join(tmp, names[-1]), "w", encoding="utf-8") as f:
                f.write(text + "\n")
        found = SecretsCollection(root=tmp)
        with default_settings():
            # One file at a time: `scan_files` scans in child processes, whose findings
            # come back without their values.
            for name in names:
                found.scan_file(name)
        return [[s.secret_value or "" for s in found.data.get(n, ())] for n in names]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    secrets, lookalikes = cases["secrets"], cases["lookalikes"]
    got = findings([c["text"] for c in secrets] + [c["text"] for c in lookalikes])
    caught, missed = 0, {}
    for case, values in zip(secrets, got):
        secret = case["secret"]
        if any(v and (secret in v or v in secret) for v in values):
            caught += 1
        else:
            missed[case["kind"]] = missed.get(case["kind"], 0) + 1
    flagged = [c["text"] for c, v in zip(lookalikes, got[len(secrets) :]) if v]
    print(
        json.dumps(
            {
                "version": VERSION,
                "secrets": len(secrets),
                "caught": caught,
                "missed": missed,
                "lookalikes": len(lookalikes),
                "flagged": flagged,
            }
        )
    )


if __name__ == "__main__":
    main()
