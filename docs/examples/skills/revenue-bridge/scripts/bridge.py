"""Split the change in ARR between two snapshots ({account: arr}) into bridge movements."""
import json
import sys


def bridge(opening, closing):
    moves = {"new": 0.0, "expansion": 0.0, "contraction": 0.0, "churn": 0.0}
    for account in opening.keys() | closing.keys():
        before, after = opening.get(account, 0.0), closing.get(account, 0.0)
        if before == 0:
            moves["new"] += after
        elif after == 0:
            moves["churn"] -= before
        elif after > before:
            moves["expansion"] += after - before
        else:
            moves["contraction"] += after - before
    return {"opening": sum(opening.values()), **moves, "closing": sum(closing.values())}


if __name__ == "__main__":
    with open(sys.argv[1]) as a, open(sys.argv[2]) as b:
        print(json.dumps(bridge(json.load(a), json.load(b)), indent=2))
