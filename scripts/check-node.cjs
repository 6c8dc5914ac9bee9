// Refuses a Node outside package.json's engines.node at once, in one line that names the way to
// the right one (docs/decisions/3107-the-wrong-node-refused-at-once.md). Every npm script but
// postinstall runs it first (its pre<script>), so a wrong Node stops before anything migrates,
// builds or starts; `npm install` and `npm ci` are stopped by engine-strict in .npmrc before
// they download anything.
//
// It runs on whatever Node the machine has, before node_modules exists: plain CommonJS, no
// dependency, nothing newer than Node 12. The wanted range is package.json's engines.node; the
// exact version named in the message is the Dockerfile's NODE_VERSION (.nvmrc repeats it for
// version managers). BIDYARD_CHECK_NODE_AS=20.1.0 checks that version instead of this Node's
// (tests/unit/check-node.test.ts).
"use strict";
var fs = require("fs");
var path = require("path");

var root = path.join(__dirname, "..");
var FIX = 'eval "$(bash scripts/node-lts.sh --env)"';

function read(name) {
  try {
    return fs.readFileSync(path.join(root, name), "utf8");
  } catch (_missing) {
    return null;
  }
}

/** [major, minor, patch] of "v24.1.0", "24.1" or "24"; missing parts are null. */
function parts(version) {
  var m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(String(version).trim());
  if (!m) return null;
  return [1, 2, 3].map(function (i) {
    return m[i] === undefined || m[i] === "x" || m[i] === "*" ? null : Number(m[i]);
  });
}

function compare(a, b) {
  for (var i = 0; i < 3; i++) {
    if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0) ? -1 : 1;
  }
  return 0;
}

/** Whether one comparator ("<25", ">=24.1.0", "^24", "24", "24.x") admits the version. */
function admits(comparator, version) {
  var m = /^(>=|<=|>|<|=|\^|~)?\s*(\S+)$/.exec(comparator);
  var wanted = m && parts(m[2]);
  if (!wanted) throw new Error('cannot read "' + comparator + '"');
  var c = compare(version, wanted);
  switch (m[1]) {
    case ">=":
      return c >= 0;
    case ">":
      return c > 0;
    case "<=":
      return c <= 0;
    case "<":
      return c < 0;
    case "^":
      return c >= 0 && version[0] === wanted[0];
    case "~":
      return c >= 0 && version[0] === wanted[0] && (version[1] || 0) === (wanted[1] || 0);
    default: // "24", "24.x", "=24.21.0": every part it names
      return wanted.every(function (part, i) {
        return part === null || part === version[i];
      });
  }
}

/** Whether the range (comparators joined by spaces, alternatives by ||) admits the version. */
function satisfies(version, range) {
  var v = parts(version);
  if (!v) throw new Error('cannot read the version "' + version + '"');
  return range.split("||").some(function (alternative) {
    var comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean);
    return comparators.every(function (comparator) {
      return admits(comparator, v);
    });
  });
}

/** null when `version` is inside engines.node, otherwise the one line that says what to do. */
function refusal(version) {
  var pkg = JSON.parse(read("package.json"));
  var range = pkg.engines && pkg.engines.node;
  if (!range) return null;
  if (satisfies(version, range)) return null;
  var one = /^>=(\d+) <(\d+)$/.exec(range);
  var wanted = one && Number(one[2]) === Number(one[1]) + 1 ? one[1] : '"' + range + '"';
  var image = /^ARG NODE_VERSION=(\S+)$/m.exec(read("Dockerfile") || "");
  return (
    "BidYard needs Node " +
    wanted +
    (image ? " (the Dockerfile's " + image[1] + ")" : "") +
    "; this is Node " +
    String(version).replace(/^v/, "") +
    ". Run: " +
    FIX +
    "   (with nvm: nvm install, which reads .nvmrc)"
  );
}

module.exports = { satisfies: satisfies, refusal: refusal, FIX: FIX };

if (require.main === module) {
  var line = refusal(process.env.BIDYARD_CHECK_NODE_AS || process.versions.node);
  if (line) {
    process.stderr.write(line + "\n");
    process.exit(1);
  }
}
