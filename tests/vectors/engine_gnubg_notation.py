"""Regenerate engine_gnubg_notation.txt: positions reached by seeded random play, and the
moves GNU Backgammon's text mode lists for them (`hint`), in gnubg's own notation.

    python tests/vectors/engine_gnubg_notation.py tests/vectors/engine_gnubg_notation.txt

Needs the `gnubg` program (/usr/games/gnubg, `apt-get install gnubg`).
"""
import random, re, subprocess, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from controller.engine import Position, legal_moves, ALL_ROLLS

rng = random.Random(20261129)
cases = []
p = Position.initial()
while len(cases) < 400:
    d = (rng.randint(1, 6), rng.randint(1, 6))
    ms = legal_moves(p, d)
    if ms and (len(ms) > 1 or rng.random() < 0.3):
        cases.append((p, d))
    if ms:
        p = rng.choice(ms).result
    if sum(p.mine) == 0 or sum(p.theirs) == 0:
        p = Position.initial(); continue
    p = p.swap()
cmds = ['new game']
for p, d in cases:
    cmds += [f'set board {p.id}', f'set dice {d[0]}{d[1]}', 'hint 9999']
out = subprocess.run(['/usr/games/gnubg', '-t', '-q'], input='\n'.join(cmds) + '\n', stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=600).stdout
chunks = out.split('The dice have been set to')[1:]
assert len(chunks) == len(cases), (len(chunks), len(cases))
lines = []
mv = re.compile(r'^\s*\d+\.\s+Cubeful \d-ply\s+(.*?)\s+Eq\.:')
for (p, d), chunk in zip(cases, chunks):
    moves = [m.group(1) for m in (mv.match(l) for l in chunk.splitlines()) if m]
    lines.append(f"{p.id} {d[0]}{d[1]} " + "|".join(moves))
open(sys.argv[1], 'w').write("\n".join(lines) + "\n")
print(len(lines), sum(1 for l in lines if l.endswith(' ')))
