"""Draft a program's option list from its --help: gen.py CONST NAME 'ROLES-JSON' [help-args...]."""
import re, subprocess, sys, json
const = sys.argv[1]; name = sys.argv[2]; roles = json.loads(sys.argv[3] or '{}'); hargs = sys.argv[4:] or ['--help']
txt = subprocess.run([name]+hargs, capture_output=True, text=True)
txt = txt.stdout or txt.stderr
opts = {}; order = []
def add(s, l, v):
    key = (s, l)
    if key in opts:
        if v != 'None': opts[key] = v
        return
    opts[key] = v; order.append(key)
for line in txt.splitlines():
    s = line.strip()
    if not s.startswith('-'): continue
    if len(line) - len(line.lstrip()) > 10: continue
    head = re.split(r'\s{2,}|\t', s)[0]
    specs = [x.strip() for x in re.split(r',\s*', head)]
    short = None; sval = 'None'; longs = []
    for sp in specs:
        m = re.match(r'^(--?)([A-Za-z0-9#][\w.-]*)(\[=?[^\]]*\]|=\S+| <[^>]+>(\.\.\.)?| [A-Z][A-Z_|-]*|<[^>]+>| \{[^}]*\})?$', sp)
        if not m: continue
        dash, nm, arg = m.group(1), m.group(2), m.group(3)
        if arg is None: v = 'None'
        elif arg.startswith('['): v = 'Optional'
        elif arg.startswith('=') and re.fullmatch(r'=[a-z-]+', arg): v = 'Literal'
        else: v = 'Required'
        if dash == '-' and len(nm) == 1:
            short = nm; sval = v
        else:
            longs.append((nm, v))
    if short is None and not longs: continue
    lv = [v for _, v in longs]
    if short is not None and longs and all(v == 'Required' for v in lv) and sval == 'None':
        sval = 'Required'
    if short is not None and sval == 'Literal': sval = 'None'
    first = True
    for nm, v in longs:
        if v == 'Literal': continue
        if first and short is not None and (v == sval):
            add(short, nm, v); short = None
        else:
            add('', nm, v)
        first = False
    if short is not None:
        add(short, '', sval)
print(f'pub(super) const {const}: &[Opt] = &[')
for (s, l) in order:
    v = opts[(s, l)]
    r = (roles.get(l) if l else None) or (roles.get(s) if s else None) or 'D'
    if r == 'flag': v = 'None'; r = 'D'
    elif r != 'D' and v == 'None': v = 'Required'
    if r.endswith('+'): print(f'    rest("{s}", "{l}", {r[:-1]}),'); continue
    if v == 'None': print(f'    flag("{s}", "{l}"),')
    elif v == 'Required': print(f'    val("{s}", "{l}", {r}),')
    else: print(f'    opt("{s}", "{l}", {r}),')
for x in roles.get('+', []): print(f'    {x},')
print('];')
