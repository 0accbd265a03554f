// Decodes the TOON answers that toon-roundtrip.sh collected with the
// reference TOON decoder (@toon-format/toon, strict mode) and checks that
// each one deep-equals the JSON answer of the same command. Prints one line
// per case and a summary; exits 1 on any mismatch.
//
//   node toon-roundtrip.mjs PREFIX CASES
//
// PREFIX is the npm prefix holding @toon-format/toon. CASES has one line
// per case, tab-separated: name, the base path of its outputs (BASE.toon,
// BASE.json, BASE.err), the command's exit status, and the keys to ignore
// (comma-separated; values that change between two runs, like timings).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'

const [prefix, casesFile] = process.argv.slice(2)
const require = createRequire(`${prefix}/`)
const { decode } = await import(pathToFileURL(require.resolve('@toon-format/toon')))
const pkg = JSON.parse(readFileSync(`${prefix}/node_modules/@toon-format/toon/package.json`, 'utf8'))

// normalize drops ignored keys and turns -0 into 0: the TOON data model has
// no negative zero (spec §2), JSON.parse keeps it.
const normalize = (v, ignore) =>
  JSON.parse(JSON.stringify(v), (k, x) => (ignore.has(k) ? undefined : Object.is(x, -0) ? 0 : x))

// flatRows joins the tags and aliases lists of a JSON answer's rows (under
// nodes or neighbors) as a TOON table writes them, its cells being
// primitives: tags with spaces, aliases with "; ".
function flatRows(v) {
  if (typeof v !== 'object' || v === null) return v
  for (const key of ['nodes', 'neighbors']) {
    if (!Array.isArray(v[key])) continue
    for (const row of v[key]) {
      if (Array.isArray(row.tags)) row.tags = row.tags.join(' ')
      if (Array.isArray(row.aliases)) row.aliases = row.aliases.join('; ')
    }
  }
  return v
}

// firstDiff names the first path where a and b differ.
function firstDiff(a, b, path = '$') {
  if (isDeepStrictEqual(a, b)) return undefined
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const at = Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`
    if (!(k in a) || !(k in b)) return `${at}: only in ${k in a ? 'TOON' : 'JSON'}`
    const d = firstDiff(a[k], b[k], at)
    if (d) return d
  }
  return `${path}: ${JSON.stringify(a).slice(0, 120)} vs ${JSON.stringify(b).slice(0, 120)}`
}

// orderDiff names the first object whose keys come in another order.
function orderDiff(a, b, path = '$') {
  if (typeof a !== 'object' || a === null) return undefined
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (!Array.isArray(a) && ka.join('\0') !== kb.join('\0')) return `${path}: {${ka}} vs {${kb}}`
  for (const k of ka) {
    const d = orderDiff(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`)
    if (d) return d
  }
  return undefined
}

const read = (file) => readFileSync(file, 'utf8')
let failures = 0
let toonBytes = 0
let jsonBytes = 0
const lines = read(casesFile).split('\n').filter(Boolean)
for (const entry of lines) {
  const [name, base, status, ignored] = entry.split('\t')
  const fail = (why) => {
    failures++
    console.log(`FAIL  ${name}: ${why}`)
  }
  if (status !== '0') {
    fail(`exit status ${status}: ${read(`${base}.err`).trim().slice(0, 300)}`)
    continue
  }
  const toon = read(`${base}.toon`)
  const json = read(`${base}.json`)
  let got
  try {
    got = decode(toon, { strict: true })
  } catch (e) {
    fail(`reference decoder: ${e.message}`)
    continue
  }
  const ignore = new Set(ignored ? ignored.split(',') : [])
  const [a, b] = [normalize(got, ignore), flatRows(normalize(JSON.parse(json), ignore))]
  const diff = firstDiff(a, b)
  if (diff) {
    fail(`decoded TOON differs from JSON at ${diff}`)
    continue
  }
  const order = orderDiff(a, b)
  if (order) {
    fail(`decoded TOON has its keys in another order than JSON at ${order}`)
    continue
  }
  toonBytes += Buffer.byteLength(toon)
  jsonBytes += Buffer.byteLength(json)
  console.log(`ok    ${name} (TOON ${Buffer.byteLength(toon)} B, JSON ${Buffer.byteLength(json)} B)`)
}
const saved = jsonBytes ? Math.round(100 * (1 - toonBytes / jsonBytes)) : 0
console.log(
  `toon-roundtrip: ${lines.length} cases, ${failures} failure(s); @toon-format/toon ${pkg.version} strict; ` +
    `TOON ${saved}% smaller than JSON where they matched`,
)
process.exit(failures ? 1 : 0)
