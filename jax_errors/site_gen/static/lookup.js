// `jax-errors lookup` in the browser: a port of jax_errors/lookup.py over api/lookup.json.
// The record brings lookup.py's patterns and constants; only the control flow is written here, and
// tests/test_site_browser.py checks that both give the same cards for real messages.
(function () {
  "use strict";

  // Python's str methods, on code points and with Python's whitespace ------------------------

  function pyText(space) {
    var edges = new RegExp("^" + space + "+|" + space + "+$", "gu");
    var runs = new RegExp(space + "+", "u");
    return {
      strip: function (s) { return s.replace(edges, ""); },
      split: function (s) { return s.split(runs).filter(function (w) { return w !== ""; }); },
      spaces: new RegExp(space, "gu"),
    };
  }

  // rapidfuzz splits words where str.isspace says (the record's syntax.space; a test checks they agree).
  var PY_SPACE_CLASS = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var PY_SPACE = pyText(PY_SPACE_CLASS);
  var LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/u;

  function splitlines(s) {
    if (s === "") return [];
    var lines = s.split(LINE_BREAK);
    if (lines[lines.length - 1] === "") lines.pop();  // a final line break ends the last line
    return lines;
  }

  function stripNewlines(s) {
    return s.replace(/^\n+|\n+$/g, "");
  }

  var SURROGATE = /[\ud800-\udfff]/;

  function codePoints(s) {
    var points = [];
    if (!SURROGATE.test(s)) {
      for (var i = 0; i < s.length; i++) points.push(s.charCodeAt(i));
      return points;
    }
    for (var ch of s) points.push(ch.codePointAt(0));
    return points;
  }

  function codePointLength(s) {
    var n = 0;
    for (var _ of s) n++;
    return n;
  }

  // Python orders strings by code point; JavaScript's < orders UTF-16 units, which differ only on surrogates.
  function compareCodePoints(a, b) {
    if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
    var x = codePoints(a), y = codePoints(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] - y[i];
    }
    return x.length - y.length;
  }

  function lastDotted(name) {
    return name.slice(name.lastIndexOf(".") + 1);
  }

  // round(x, ndigits): half to even on the double's exact decimal value.
  function pyRound(x, ndigits) {
    var exact = Math.abs(x).toFixed(100);
    var point = exact.indexOf(".");
    var kept = exact.slice(0, point + 1 + ndigits), rest = exact.slice(point + 1 + ndigits);
    var odd = Number(kept[kept.length - 1]) % 2 === 1;
    var up = rest[0] > "5" || rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || odd);
    var digits = (BigInt(kept.replace(".", "")) + (up ? 1n : 0n)).toString().padStart(ndigits + 1, "0");
    var value = Number(digits.slice(0, digits.length - ndigits) + "." + digits.slice(digits.length - ndigits));
    return x < 0 ? -value : value;
  }

  // rapidfuzz's fuzz.token_set_ratio (its pure-Python reference, fuzz_py.py) ---------------------

  function popcount(v) {
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }

  // Longest common subsequence of two code point arrays, bit-parallel (Hyyrö), 32 positions a word.
  var masks = new Map();

  function lcsLength(a, b) {
    if (a.length > b.length) { var t = a; a = b; b = t; }
    var start = 0, endA = a.length, endB = b.length;
    while (start < endA && a[start] === b[start]) start++;
    while (endA > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
    var affix = start + a.length - endA;  // common prefix and suffix belong to every LCS
    a = a.slice(start, endA);
    b = b.slice(start, endB);
    if (!a.length) return affix;
    masks.clear();
    var words = Math.ceil(a.length / 32);
    for (var i = 0; i < a.length; i++) {
      var mask = masks.get(a[i]);
      if (!mask) masks.set(a[i], mask = new Uint32Array(words));
      mask[i >>> 5] |= 1 << (i & 31);
    }
    var rows = new Uint32Array(words).fill(0xffffffff);
    for (var j = 0; j < b.length; j++) {
      var match = masks.get(b[j]);
      if (!match) continue;
      var carry = 0;
      for (var w = 0; w < words; w++) {
        var s = rows[w], u = (s & match[w]) >>> 0;
        var sum = s + u + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        rows[w] = (sum >>> 0) | (s & ~u);
      }
    }
    var common = 0;
    for (var k = 0; k < words; k++) {
      var bits = Math.min(32, a.length - 32 * k);
      var valid = bits === 32 ? 0xffffffff : (1 << bits) - 1;
      common += popcount((~rows[k] & valid) >>> 0);
    }
    return affix + common;
  }

  function indelDistance(a, b) {
    return a.length + b.length - 2 * lcsLength(a, b);
  }

  function normDistance(dist, lensum) {
    return lensum ? 100 - 100 * dist / lensum : 100;
  }

  function tokenSet(s) {
    return new Set(PY_SPACE.split(s));
  }

  function joinSorted(tokens) {
    return codePoints(tokens.slice().sort(compareCodePoints).join(" "));
  }

  function tokenSetRatioOfSets(tokensA, tokensB) {
    if (!tokensA.size || !tokensB.size) return 0;
    var intersect = [], diffAB = [], diffBA = [];
    tokensA.forEach(function (t) { (tokensB.has(t) ? intersect : diffAB).push(t); });
    tokensB.forEach(function (t) { if (!tokensA.has(t)) diffBA.push(t); });
    if (intersect.length && (!diffAB.length || !diffBA.length)) return 100;
    var ab = joinSorted(diffAB), ba = joinSorted(diffBA);
    var sectLen = codePointLength(intersect.join(" "));
    var joint = sectLen !== 0 ? 1 : 0;
    var sectABLen = sectLen + joint + ab.length, sectBALen = sectLen + joint + ba.length;
    var result = normDistance(indelDistance(ab, ba), sectABLen + sectBALen);
    if (!sectLen) return result;
    var sectABRatio = normDistance(joint + ab.length, sectLen + sectABLen);
    var sectBARatio = normDistance(joint + ba.length, sectLen + sectBALen);
    return Math.max(result, sectABRatio, sectBARatio);
  }

  function tokenSetRatio(s1, s2) {
    return tokenSetRatioOfSets(tokenSet(s1), tokenSet(s2));
  }

  // lookup.py over a loaded api/lookup.json ------------------------------------------------------

  function Matcher(record) {
    var syntax = record.syntax, scoring = record.scoring;
    var frame = new RegExp(syntax.frame, "u");
    var exceptionLine = new RegExp(syntax.exception_line, "u");
    var values = new RegExp(syntax.values, "gu");
    var text = pyText(syntax.space);
    var entries = record.entries;
    var anchors = entries.map(function (e) { return e.anchors ? e.anchors.split(" ") : []; });
    var keys = entries.map(function (e) { return [e.fuzzy_key].concat(e.examples).map(tokenSet); });
    var regexes = new Array(entries.length);

    function normalize(s) {
      return text.split(s.replace(values, " ")).join(" ").toLowerCase();
    }

    function jaxRelative(file) {
      var index = file.lastIndexOf("/jax/");
      if (index < 0 || file.slice(index).indexOf("/jaxlib/") >= 0) return null;
      return file.slice(index + 1);
    }

    function parseQuery(input) {
      var lines = splitlines(stripNewlines(input));
      var frames = [], lastFrame = -1;
      lines.forEach(function (line, i) {
        var found = frame.exec(line);
        if (!found) return;
        lastFrame = i;
        var path = jaxRelative(found.groups.file);
        if (path) frames.push([path, parseInt(found.groups.line, 10)]);
      });
      var rest = lastFrame >= 0 ? lines.slice(lastFrame + 1) : lines;
      for (var i = 0; i < rest.length; i++) {
        var head = exceptionLine.exec(rest[i]);
        if (head && (lastFrame < 0 || !rest[i].startsWith(" "))) {
          var message = text.strip([head.groups.msg || ""].concat(rest.slice(i + 1)).join("\n"));
          return {message: message, excClass: lastDotted(head.groups.cls), jaxFrames: frames};
        }
      }
      var kept = rest.filter(function (line) { return !line.startsWith("    "); }).join("\n");
      return {message: text.strip(kept) || text.strip(input), excClass: null, jaxFrames: frames};
    }

    function regexOf(index) {
      return regexes[index] || (regexes[index] = new RegExp(entries[index].regex, "u"));
    }

    function hasAll(words, needed) {
      return needed.every(function (w) { return words.has(w); });
    }

    function lookup(query, limit) {
      if (typeof query === "string") query = parseQuery(query);
      if (limit === undefined) limit = scoring.limit;
      var message = query.message;
      var words = new Set(text.split(message));
      var spaced = message.replace(text.spaces, " ");  // template regexes spell \s as a space
      var letters = Math.max(1, codePointLength(message.replace(/ /g, "")));
      var matches = new Map();
      entries.forEach(function (entry, index) {
        if (!entry.literal_length || !hasAll(words, anchors[index])) return;
        if (regexOf(index).test(spaced)) {
          var coverage = Math.min(1.0, entry.literal_length / letters);
          matches.set(entry.id, {entry: entry, score: scoring.template_base + scoring.coverage_weight * coverage,
                                 how: "template"});
        }
      });
      var asked = tokenSet(normalize(message));
      var ratios = keys.map(function (sets, index) {  // an entry's best ratio over its skeleton and examples
        return [Math.max.apply(null, sets.map(function (key) { return tokenSetRatioOfSets(asked, key); })), index];
      });
      ratios.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });  // best first, ties in entry order
      ratios.slice(0, limit * scoring.fuzzy_candidates).forEach(function (pair) {
        var entry = entries[pair[1]];
        var score = scoring.fuzzy_ceiling * pair[0] / 100;
        if (score >= scoring.fuzzy_floor && !matches.has(entry.id)) {
          matches.set(entry.id, {entry: entry, score: score, how: "fuzzy"});
        }
      });
      var ranked = Array.from(matches.values(), function (m) { return adjust(m, query); });
      ranked.sort(function (a, b) {
        return b.score - a.score || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0);
      });
      return ranked.slice(0, limit);
    }

    function adjust(match, query) {
      var score = match.score;
      if (query.excClass && lastDotted(match.entry.class) !== query.excClass) score -= scoring.class_penalty;
      var frames = query.jaxFrames || [];
      if (frames.length && match.entry.path === frames[frames.length - 1][0]) score += scoring.path_bonus;
      if (match.entry.raised) score += scoring.raised_bonus;
      return {entry: match.entry, score: pyRound(Math.min(score, 1.0), 4), how: match.how};
    }

    return {entries: entries, parseQuery: parseQuery, lookup: lookup, normalize: normalize, regexOf: regexOf};
  }

  // The search page ------------------------------------------------------------------------------

  var root = new URL(document.body.dataset.root || "./", window.location.href);
  var loaded = null;

  function load() {
    if (!loaded) {
      loaded = fetch(new URL("api/lookup.json", root)).then(function (response) {
        if (!response.ok) throw new Error("api/lookup.json: HTTP " + response.status);
        return response.json();
      }).then(Matcher);
    }
    return loaded;
  }

  window.jaxErrorsLookup = {load: load, tokenSetRatio: tokenSetRatio, pyRound: pyRound, Matcher: Matcher,
                            spaceClass: PY_SPACE_CLASS};

  function render(list, matches) {
    list.replaceChildren();
    matches.forEach(function (m) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = new URL(m.entry.href, root).href;
      link.className = "lookup-link";
      link.textContent = m.entry.title;
      var score = document.createElement("span");
      score.className = "lookup-score lookup-" + m.how;
      score.textContent = pyRound(m.score, 3).toFixed(3);
      score.title = m.how === "template" ? "the message fits this template" : "a similar wording";
      var meta = document.createElement("span");
      meta.className = "lookup-meta";
      meta.textContent = m.entry.class + " · " + m.entry.path + ":" + m.entry.line;
      item.append(score, " ", link, " ", meta);
      list.append(item);
    });
  }

  function start() {
    var input = document.getElementById("lookup-input");
    if (!input) return;
    var status = document.getElementById("lookup-status");
    var list = document.getElementById("lookup-results");
    var say = function (message) { status.textContent = message; status.hidden = !message; };
    if (root.protocol === "file:") {
      input.disabled = true;
      say("Template lookup needs the site served over HTTP, for example with jax-errors serve.");
      return;
    }
    var timer = null;
    var run = function () {
      var pasted = input.value;
      if (!pasted.trim()) { list.replaceChildren(); say(""); return; }
      load().then(function (matcher) {
        if (input.value !== pasted) return;
        var matches = matcher.lookup(pasted);
        render(list, matches);
        say(matches.length ? "" : "No card's template fits this message; try the full-text search below.");
      }, function (error) { say("Template lookup is unavailable: " + error.message); });
    };
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 150); });
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) input.value = query;
    load().then(run, function (error) { say("Template lookup is unavailable: " + error.message); });
  }

  start();
})();
