// `jax-errors lookup` in the browser: a port of jax_errors/lookup.py over api/lookup.json.
// The record brings lookup.py's patterns and constants; only the control flow is written here, and
// tests/test_site_browser.py checks that both give the same cards for real messages.
(function () {
  "use strict";

  // Python's str methods, on code points and with Python's whitespace ------------------------

  function pyText(space) {
    var edges = new RegExp("^" + space + "+|" + space + "+$", "gu");
    var start = new RegExp("^" + space + "+", "u"), end = new RegExp(space + "+$", "u");
    var runs = new RegExp(space + "+", "u");
    return {
      strip: function (s) { return s.replace(edges, ""); },
      lstrip: function (s) { return s.replace(start, ""); },
      rstrip: function (s) { return s.replace(end, ""); },
      split: function (s) { return s.split(runs).filter(function (w) { return w !== ""; }); },
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
  // spells_words' letter or digit (Python's \w but the underscore).
  var WORD_CHARACTER = /[\p{L}\p{N}]/u;
  var WORD_CHARACTER_AT_END = /[\p{L}\p{N}]$/u, WORD_CHARACTER_AT_START = /^[\p{L}\p{N}]/u;

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

  // rapidfuzz's fuzz.token_sort_ratio: fuzz.ratio (Indel's normalized similarity) of the sorted words.
  function tokenSortRatio(s1, s2) {
    var a = joinSorted(PY_SPACE.split(s1)), b = joinSorted(PY_SPACE.split(s2));
    var lensum = a.length + b.length;
    return lensum ? (1 - indelDistance(a, b) / lensum) * 100 : 100;
  }

  // lookup.py's fuzzy_ratio, with the scoring of api/lookup.json.
  function fuzzyRatio(s1, s2, scoring) {
    if (firstSentences(s1, s2, scoring)) return 100;
    return (tokenSetRatio(s1, s2) + tokenSortRatio(s1, s2)) / 2;
  }

  // lookup.py's first_sentences (none with an api/lookup.json from before the rule, still in a browser's cache).
  function firstSentences(key, other, scoring) {
    return scoring.sentence_ends !== undefined && scoring.sentence_ends.indexOf(key.slice(-1)) >= 0 &&
      other.startsWith(key + " ") && key.split(" ").length >= scoring.sentences_min_words;
  }

  // lookup.py over a loaded api/lookup.json ------------------------------------------------------

  function Matcher(record) {
    var syntax = record.syntax, scoring = record.scoring;
    var frame = new RegExp(syntax.frame, "u");
    var exceptionLine = new RegExp(syntax.exception_line, "u");
    var values = new RegExp(syntax.values, "gu");
    var statusPrefix = new RegExp(syntax.status_prefix, "u");
    var cppWords = new RegExp(syntax.cpp_words, "u");
    var runtimeClasses = new Set(syntax.runtime_classes);
    var pythonWords = new RegExp(syntax.python_words, "u");
    var pythonClasses = new Set(syntax.python_classes);
    var numpyWords = new RegExp(syntax.numpy_words, "u");
    var numpyClasses = new Set(syntax.numpy_classes);
    var noAttribute = new RegExp(syntax.no_attribute, "u");
    // names.py's MISSING, in its order (none but no_attribute with an api/lookup.json from before 3.10.0).
    var noModule = syntax.no_module === undefined ? null : new RegExp(syntax.no_module, "u");
    var missingWords = [noAttribute, noModule, syntax.cannot_import === undefined ? null
      : new RegExp(syntax.cannot_import, "u")];
    var text = pyText(syntax.space);
    var HOLE_MARK = syntax.hole_mark;
    var adjacentPlaceholders = new RegExp(syntax.adjacent_placeholders, "gu");
    // api/lookup.json's entries are columns, coded ones indexes into record.values; an entry's object is made
    // when lookup reaches it (a candidate, a result, a site), not for every entry at load.
    var columns = record.entries, count = record.count;
    var made = new Array(count);

    function decoded(field, index) {
      var code = columns[field][index];
      return code === null ? null : record.values[field][code];
    }

    function entryAt(index) {
      if (made[index]) return made[index];
      var id = columns.id[index];
      var title = columns.title[index];
      return made[index] = {
        id: id, class: decoded("class", index), path: decoded("path", index),
        title: title === null ? heldTitle(cuts.held[cutRows.get(index)]) : title,
        line: columns.line[index], regex: columns.regex[index], literal_length: columns.literal_length[index],
        anchors: columns.anchors[index], anchor_key: columns.anchor_key[index], raised: columns.raised[index],
        live_id: columns.live_id[index], until: decoded("until", index), lead: columns.lead[index],
        group: columns.group[index], said: record.said[id] === undefined ? [] : record.said[id],
        href: record.card_href.replace("{id}", id),
      };
    }

    // Made once needed, not at load: the first lookup after a deep link waits for all of this.
    var byId = null;
    var anchors = new Array(count);
    var byAnchor = new Map(), unanchored = [], groups = new Map();
    for (var i = 0; i < count; i++) {
      var key = columns.anchor_key[i], group = columns.group[i];
      if (columns.literal_length[i] && key === null) unanchored.push(i);
      else if (columns.literal_length[i]) (byAnchor.get(key) || byAnchor.set(key, []).get(key)).push(i);
      if (group !== null) (groups.get(group) || groups.set(group, []).get(group)).push(i);
    }
    var fuzzyKeys = record.fuzzy.keys, owners = record.fuzzy.owners;
    var common = new Set(record.fuzzy.common);
    // A fuzzy key is normalized (lookup.py's normalize): its words are parted by single spaces.
    // Built at load, so without a Set per key: keys come in order, so a word a key repeats finds the key last in its list.
    var postings = new Map();
    for (var index = 0; index < fuzzyKeys.length; index++) {
      var keyWords = fuzzyKeys[index].split(" ");
      for (var k = 0; k < keyWords.length; k++) {
        var list = postings.get(keyWords[k]);
        if (list === undefined) {
          if (common.has(keyWords[k])) continue;
          postings.set(keyWords[k], list = []);
        }
        if (list[list.length - 1] !== index) list.push(index);
      }
    }
    var regexes = new Array(count);
    // lookup.py's head pass: the first lines (or first sentences) of templates that go on past them, as columns over
    // those entries.
    var firstLines = record.first_lines ||
      {entry: [], regex: [], anchors: [], anchor_key: [], literal_length: [], sentence: []};
    var byLineAnchor = new Map(), unanchoredLines = [];
    firstLines.entry.forEach(function (entry, row) {
      var key = firstLines.anchor_key[row];
      if (key === null) unanchoredLines.push(row);
      else (byLineAnchor.get(key) || byLineAnchor.set(key, []).get(key)).push(row);
    });
    var lineRegexes = new Array(firstLines.entry.length), lineAnchors = new Array(firstLines.entry.length);
    // lookup.py's cut pass: the held text of templates a message cut short may begin (Entry.held), as columns over
    // those entries.
    var cuts = record.cuts || {entry: [], held: [], key: []};
    var byCutAnchor = new Map(), cutRows = new Map(), cutShapes = new Array(cuts.entry.length);
    cuts.entry.forEach(function (entry, row) {
      var key = cuts.key[row];
      (byCutAnchor.get(key) || byCutAnchor.set(key, []).get(key)).push(row);
      cutRows.set(entry, row);
    });

    // template.py's held_title: the title of an entry the file sends none for, made from its held text.
    function heldTitle(held) {
      var title = held.replace(adjacentPlaceholders, HOLE_MARK), points = Array.from(title);
      if (points.length <= syntax.title_length) return title;
      return text.rstrip(points.slice(0, syntax.title_length - 1).join("")) + "\u2026";
    }

    function normalize(s) {
      return text.split(s.replace(values, " ")).join(" ").toLowerCase();
    }

    function withoutStatus(s) {
      return s.replace(statusPrefix, "");
    }

    function looksRaisedInXla(query) {
      return runtimeClasses.has(query.excClass) || statusPrefix.test(query.message) || cppWords.test(query.message);
    }

    // origin.py's _worded_by: the message's first line in words the interpreter or NumPy words, raised as one of
    // its classes (or no class given).
    function wordedBy(query, words, classes) {
      return (query.excClass == null || classes.has(query.excClass)) && words.test(firstLineOf(query.message));
    }

    function looksRaisedByPython(query) {
      return wordedBy(query, pythonWords, pythonClasses);
    }

    function looksRaisedByNumpy(query) {
      return wordedBy(query, numpyWords, numpyClasses);
    }

    function looksWordedElsewhere(query) {
      return looksRaisedByPython(query) || looksRaisedByNumpy(query);
    }

    // origin.py's no_card_verdict, as the search page words it.
    function noCardMessage(query) {
      if (looksRaisedInXla(query)) return record.messages.xla;
      return looksRaisedByPython(query) ? record.messages.python : looksRaisedByNumpy(query) ? record.messages.numpy
        : record.messages.none;
    }

    // names.py's missing: the dotted name a message's first line says is missing, or null.
    function missingName(line) {
      for (var i = 0; i < missingWords.length; i++) {
        var said = missingWords[i] === null ? null : missingWords[i].exec(line);
        if (said !== null) return said.groups.name === undefined ? said.groups.module
          : said.groups.module + "." + said.groups.name;
      }
      return null;
    }

    function missingLine(query) {
      return firstLineOf(withoutStatus(unquoted(query.message)));
    }

    // names.py's name_said, over a loaded api/names.json: what the releases say of the module or name a message
    // says is missing, or null.
    function nameSaid(history, query) {
      var line = missingLine(query), dotted = missingName(line);
      if (!history || !history.releases || dotted === null) return null;
      var has = function (table, key) { return Object.prototype.hasOwnProperty.call(table, key); };
      var modules = history.modules;
      if (noModule.test(line)) return has(modules, dotted) ? told(dotted, "a module", modules[dotted], history) : null;
      var cut = dotted.lastIndexOf("."), module = cut < 0 ? "" : dotted.slice(0, cut), name = dotted.slice(cut + 1);
      if (has(history.names, dotted)) return told(dotted, "a name of " + module, history.names[dotted], history);
      if (has(history.module_names, module) && history.module_names[module].indexOf(name) >= 0) {
        return told(dotted, "a name of " + module, modules[module], history);
      }
      return null;
    }

    // names.py's _told.
    function told(dotted, what, span, history) {
      var releases = history.releases, first = span[0], last = span[1], warned = span[2], warning = span[3], said;
      if (first !== null && last !== null) {
        var was = first === last ? "only in " + releases[first]
          : "first in " + releases[first] + " and last in " + releases[last];
        said = dotted + " was " + what + ", " + was + ": releases from " + releases[last + 1] +
          " on lack it, and so do those before " + releases[first] + ".";
      } else if (last !== null) {
        said = dotted + " was " + what + ", last in " + releases[last] + ": releases from " + releases[last + 1] +
          " on lack it.";
      } else if (first !== null) {
        said = dotted + " is " + what + ", first in " + releases[first] + ": releases before it lack it.";
      } else {
        said = dotted + " is " + what + ".";
      }
      if (warned !== null) {
        said += " Reading it warned, first in " + releases[warned] + (warning ? ": \u201c" + warning + "\u201d" : ".");
      }
      return said;
    }

    // lookup.py's unquoted: a message pasted as a JSON string is the text it encodes.
    function unquoted(message) {
      if (message.length >= 2 && message[0] === '"' && message[message.length - 1] === '"') {
        try {
          var value = JSON.parse(message);
          if (typeof value === "string") return value;
        } catch (error) {
          return message;
        }
      }
      return message;
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
      return regexes[index] || (regexes[index] = new RegExp(columns.regex[index], "u"));
    }

    function anchorsOf(index) {
      var spelled = columns.anchors[index];
      return anchors[index] || (anchors[index] = spelled ? spelled.split(" ") : []);
    }

    function hasAll(words, needed) {
      return needed.every(function (w) { return words.has(w); });
    }

    // lookup.py's _candidates: those whose rarest anchor word the message holds, and those without one, in order.
    function candidates(anchored, unanchoredOnes, words) {
      var found = new Set(unanchoredOnes);
      words.forEach(function (w) { (anchored.get(w) || []).forEach(function (i) { found.add(i); }); });
      return Array.from(found).sort(function (a, b) { return a - b; });
    }

    // lookup.py's first_line_of: the first line that is not blank, without the whitespace at its ends.
    function firstLineOf(message) {
      var lines = splitlines(text.strip(message));
      return lines.length ? text.strip(lines[0]) : "";
    }

    function templateScore(entry, message) {
      var letters = codePointLength(message.replace(/ /g, ""));
      var spelled = Math.min(entry.literal_length, letters);
      var coverage = spelled / Math.max(1, letters);
      var strength = Math.max(coverage, Math.min(1.0, spelled / scoring.strong_literal));
      return scoring.weak_template_base + (scoring.template_base - scoring.weak_template_base) * strength +
        scoring.coverage_weight * coverage;
    }

    // lookup.py's without_cut_mark: the message without the ellipsis that ends it, when one does.
    function withoutCutMark(message) {
      var stripped = text.strip(message);
      for (var i = 0; i < scoring.cut_marks.length; i++) {
        var mark = scoring.cut_marks[i];
        if (stripped.endsWith(mark)) return text.strip(stripped.slice(0, stripped.length - mark.length));
      }
      return message;
    }

    // lookup.py's Entry.holes, Entry.cut_from and Entry.cut_words, of a row of cuts.
    function cutShape(row) {
      if (cutShapes[row]) return cutShapes[row];
      var held = cuts.held[row], holes = [], words = [], word;
      for (var i = 0; i < held.length; i++) if (held[i] === HOLE_MARK) holes.push(i);
      var heldWord = new RegExp("[^ " + HOLE_MARK + "]+", "gu");
      while ((word = heldWord.exec(held)) !== null) {
        if (WORD_CHARACTER.test(word[0])) words.push(word);
      }
      var least = words[scoring.cut_min_words - 1];
      // A browser whose Unicode reads fewer letters than the Python that wrote the file tries no cut here.
      if (least === undefined) return cutShapes[row] = {holes: [], least: Infinity, words: []};
      var alone = words.slice(0, scoring.cut_min_words - 1).filter(function (w) {
        var end = w.index + w[0].length;
        return (w.index === 0 || held[w.index - 1] === " ") && (end === held.length || held[end] === " ");
      }).map(function (w) { return w[0]; });
      return cutShapes[row] = {holes: holes, least: least.index + least[0].search(WORD_CHARACTER) + 1, words: alone};
    }

    // lookup.py's cut_fit: the literal length a message cut short (`spaced`, folded) holds of the template's held
    // text, and whether it ends within one of its words; null when it fits no beginning of its messages.
    function cutFit(index, row, spaced) {
      var held = cuts.held[row], shape = cutShape(row), least = shape.least;
      var lead = text.rstrip(held.split(HOLE_MARK, 1)[0]);
      if (!(spaced.startsWith(lead) || lead.startsWith(spaced))) return null;
      var tail = spaced.slice(spaced.lastIndexOf(" ") + 1);
      var withinText = new Set(), points = new Set();
      var start = tail ? held.indexOf(tail, Math.max(0, least - tail.length)) : -1;
      while (start >= 0) {
        if (start === 0 || held[start - 1] === " ") {
          withinText.add(start + tail.length);
          points.add(start + tail.length);
        }
        start = held.indexOf(tail, start + 1);
      }
      shape.holes.forEach(function (i) { if (i >= least) points.add(i + 1); });
      var sorted = Array.from(points).sort(function (a, b) { return b - a; });
      for (var k = 0; k < sorted.length; k++) {
        var point = sorted[k], rest = held.slice(point);
        if (rest.startsWith(HOLE_MARK)) continue;  // completed as the point after that mark is, tried before
        if (withinText.has(point)) {
          if (!spaced.endsWith(text.lstrip(held.slice(held.lastIndexOf(HOLE_MARK, point - 1) + 1, point)))) continue;
        } else {
          var before = point - 1 > 0 ? held.lastIndexOf(HOLE_MARK, point - 2) : -1;
          if (!spaced.includes(text.strip(held.slice(before + 1, point - 1)))) continue;
        }
        if (point >= least && rest && regexOf(index).test(spaced + rest.split(HOLE_MARK).join(""))) {
          var withinWord = withinText.has(point) && WORD_CHARACTER_AT_END.test(tail) &&
            WORD_CHARACTER_AT_START.test(rest);
          return [codePointLength(held.slice(0, point).split(HOLE_MARK).join("").replace(/ /g, "")), withinWord];
        }
      }
      return null;
    }

    // lookup.py's LookupIndex._fuzzy: entries by their best ratio over the shortlisted keys.
    function fuzzy(key, count) {
      var shared = new Map();
      new Set(text.split(key)).forEach(function (w) {
        if (common.has(w)) return;
        (postings.get(w) || []).forEach(function (i) { shared.set(i, (shared.get(i) || 0) + 1); });
      });
      var shortlist = Array.from(shared.keys()).sort(function (a, b) {
        return shared.get(b) - shared.get(a) || a - b;
      }).slice(0, scoring.fuzzy_shortlist);
      var best = new Map();
      shortlist.forEach(function (i) {
        var ratio = fuzzyRatio(key, fuzzyKeys[i], scoring);
        owners[i].forEach(function (owner) { best.set(owner, Math.max(ratio, best.get(owner) || 0)); });
      });
      return Array.from(best.entries()).sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; }).slice(0, count);
    }

    function lookup(query, limit) {
      if (typeof query === "string") query = parseQuery(query);
      query = {message: unquoted(query.message), excClass: query.excClass, jaxFrames: query.jaxFrames};
      if (limit === undefined) limit = scoring.limit;
      var found = new Map();
      var variants = [query.message, withoutStatus(query.message)];
      if (variants[1] === variants[0]) variants.pop();
      variants.forEach(function (message) {
        var words = new Set(text.split(message));
        var spaced = text.split(message).join(" ");  // folded, as template.folded does; \s is a space there
        candidates(byAnchor, unanchored, words).forEach(function (index) {
          if (found.has(index) || !hasAll(words, anchorsOf(index))) return;
          if (regexOf(index).test(spaced)) found.set(index, [templateScore(entryAt(index), message), "template"]);
        });
      });
      // lookup.py's head pass: the message's first line, then the whole message (one quoted up to a sentence's
      // end), each of it and of it without XLA's status, in that order and once each.
      var lines = [];
      [query.message, withoutStatus(query.message)].forEach(function (message) {
        [firstLineOf(message), text.strip(message)].forEach(function (line) {
          if (lines.indexOf(line) < 0) lines.push(line);
        });
      });
      lines.forEach(function (line) {
        var lineWords = new Set(text.split(line)), lineSpaced = text.split(line).join(" ");
        // Rows of firstLines are in entry order, as lookup.py's candidates are.
        candidates(byLineAnchor, unanchoredLines, lineWords).forEach(function (row) {
          var index = firstLines.entry[row];
          var needed = lineAnchors[row] ||
            (lineAnchors[row] = firstLines.anchors[row] ? firstLines.anchors[row].split(" ") : []);
          if (found.has(index) || !hasAll(lineWords, needed)) return;
          var regex = lineRegexes[row] || (lineRegexes[row] = new RegExp(firstLines.regex[row], "u"));
          if (regex.test(lineSpaced)) {
            var score = templateScore({literal_length: firstLines.literal_length[row]}, line);
            found.set(index, [scoring.first_line_ceiling * score,
                              (firstLines.sentence || [])[row] ? "first-sentence" : "first-line"]);
          }
        });
      });
      // lookup.py's cut pass: a message cut short, the beginning of a template's messages; none for a message the
      // interpreter's or NumPy's own words fit.
      var foreign = looksWordedElsewhere(query);
      var cutVariants = [];
      (foreign ? [] : [query.message, withoutStatus(query.message)]).forEach(function (message) {
        var cut = withoutCutMark(message);
        if (cutVariants.indexOf(cut) < 0) cutVariants.push(cut);
      });
      cutVariants.forEach(function (message) {
        var cutWords = new Set(text.split(message)), cutSpaced = text.split(message).join(" ");
        // Rows of cuts are in entry order, as lookup.py's candidates are.
        candidates(byCutAnchor, [], cutWords).forEach(function (row) {
          var index = cuts.entry[row], fit;
          if (found.has(index) || !hasAll(cutWords, cutShape(row).words)) return;
          if (!(fit = cutFit(index, row, cutSpaced))) return;
          var score = templateScore({literal_length: fit[0]}, message);
          found.set(index, [(fit[1] ? 1.0 : scoring.first_line_ceiling) * score, "cut"]);
        });
      });
      if (foreign) return results(found, query, limit);
      var floor = looksRaisedInXla(query) ? scoring.xla_fuzzy_floor : scoring.fuzzy_floor;
      // lookup.py's fuzzy pass: the message, then its first line scaled down; a card keeps its better fuzzy score,
      // and the better of a fuzzy score and a cut one.
      // Keyed by the text compared, so that a message of one line is compared once.
      var message = withoutStatus(query.message);
      var key = normalize(message), lineKey = normalize(firstLineOf(message));
      var keys = [[key, scoring.fuzzy_ceiling]];
      if (lineKey !== key) keys.push([lineKey, scoring.first_line_ceiling * scoring.fuzzy_ceiling]);
      keys.forEach(function (pair) {
        var ceiling = pair[1];
        fuzzy(pair[0], limit * scoring.fuzzy_candidates).forEach(function (hit) {
          var score = ceiling * hit[1] / 100, held = found.get(hit[0]);
          var replaceable = held !== undefined && (held[1] === "fuzzy" || held[1] === "cut");
          if (score >= floor && (held === undefined || (replaceable && held[0] < score))) {
            found.set(hit[0], [score, "fuzzy"]);
          }
        });
      });
      return results(found, query, limit);
    }

    function cardOf(entry) {
      if (byId === null) {
        byId = new Map();
        for (var i = 0; i < count; i++) byId.set(columns.id[i], i);
      }
      var card = byId.get(entry.live_id || entry.id);
      return card === undefined ? entry : entryAt(card);
    }

    // lookup.py's shared_start: how many characters (code points) `spaced` begins with of `lead`;
    // read no further than the lead, however long the message.
    function sharedStart(lead, spaced) {
      var rest = spaced[Symbol.iterator](), n = 0;
      for (var ch of (lead || "")) {
        var next = rest.next();
        if (next.done || next.value !== ch) break;
        n++;
      }
      return n;
    }

    function compareIds(a, b) {
      return a < b ? -1 : a > b ? 1 : 0;
    }

    // lookup.py's _better: the higher score, then a site raised today, then a current wording, then the smaller id.
    function better(m, other) {
      return m.score > other.score || m.score === other.score && (
        (m.entry.until === null) > (other.entry.until === null) ||
        (m.entry.until === null) === (other.entry.until === null) && (
          (m.matched === null) > (other.matched === null) ||
          (m.matched === null) === (other.matched === null) && compareIds(m.entry.id, other.entry.id) < 0));
    }

    // lookup.py's Entry.lineage_key, of a card: the cards of a removed lineage make one result.
    function lineageKey(card) {
      return record.lineage[card.id] === undefined ? card.id : record.lineage[card.id];
    }

    function results(found, query, limit) {
      var cards = new Map();
      Array.from(found.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
        var entry = entryAt(index), card = cardOf(entry);
        var m = {entry: card, score: adjusted(found.get(index)[0], card, entry, query), how: found.get(index)[1],
                 matched: card === entry ? null : entry, sites: []};
        var key = lineageKey(card);
        if (!cards.has(key) || better(m, cards.get(key))) cards.set(key, m);
      });
      var grouped = new Map();
      cards.forEach(function (m) {
        var key = m.entry.group === null ? "id:" + m.entry.id : "group:" + m.entry.group;
        if (m.entry.group !== null) m.sites = groups.get(m.entry.group).map(entryAt);
        if (!grouped.has(key) || better(m, grouped.get(key))) grouped.set(key, m);
      });
      grouped.forEach(function (m, key) {
        var site = framedSite(m.sites, query.jaxFrames || []) || wordedSite(m.sites.filter(function (s) {
          return s.until === null || m.entry.until !== null;
        }), m.entry, query.message);
        if (site && site !== m.entry) {
          grouped.set(key, {entry: site, score: m.score, how: m.how, matched: m.matched, sites: m.sites});
        }
      });
      var ranked = Array.from(grouped.values()).filter(function (m) { return m.score >= scoring.match_floor; });
      // lookup.py's ranking: the higher score, a live card before a retired one, one whose current words fit
      // before one reached through words it once had, the card whose leading words the message follows
      // further, then the smaller id.
      var spaced = text.split(query.message).join(" ");
      ranked.sort(function (a, b) {
        return b.score - a.score || (a.entry.until !== null) - (b.entry.until !== null) ||
          (a.matched !== null) - (b.matched !== null) ||
          sharedStart(b.entry.lead, spaced) - sharedStart(a.entry.lead, spaced) || compareIds(a.entry.id, b.entry.id);
      });
      var held = heldCard(query, ranked);
      if (held !== null) {
        ranked = [held].concat(ranked.filter(function (m) { return !names(m, held.entry); }));
      }
      var named = removedName(query, ranked);
      if (named !== null) ranked.splice(1, 0, named);
      return ranked.slice(0, limit);
    }

    // lookup.py's _names: whether a result is a card already (one of its lineage, or one of the sites it is one of).
    function names(m, card) {
      var key = lineageKey(card);
      return lineageKey(m.entry) === key || m.sites.some(function (s) { return s.id === card.id; });
    }

    // lookup.py's _held: when the first result is a removed raise, none succeeding it, that added words to a caught
    // exception's message, the live card found with medium confidence or more of the message the pasted one held
    // before those words, first, at the score of its own fit.
    function heldCard(query, ranked) {
      if (!ranked.length || ranked[0].entry.live_id !== null) return null;
      var first = ranked[0], message = text.split(query.message).join(" ");
      var wording = first.matched || first.entry;
      var words = Object.prototype.hasOwnProperty.call(record.wrappers, wording.id) ? record.wrappers[wording.id] : "";
      var end = words ? message.indexOf(words) : -1;
      var held = end > 0 ? lookup({message: message.slice(0, end), excClass: null, jaxFrames: []}, 1) : [];
      if (!held.length || held[0].entry.live_id === null || held[0].score < scoring.confidence.medium) return null;
      return {entry: held[0].entry, score: held[0].score, how: "held", matched: held[0].matched, sites: held[0].sites};
    }

    // lookup.py's _removed_name: of a message saying a module lacks a name, the card of that name's entry in the
    // module's deprecation table, second, at the first result's score.
    function removedName(query, ranked) {
      var said = ranked.length ? noAttribute.exec(firstLineOf(withoutStatus(query.message))) : null;
      var attribute = said === null ? null : said.groups.module + "." + said.groups.name;
      if (attribute === null || !Object.prototype.hasOwnProperty.call(record.removed_names, attribute)) return null;
      var entry = entryAt(record.removed_names[attribute]);
      if (ranked.some(function (m) { return names(m, entry); })) return null;  // a result is that card already
      return {entry: entry, score: ranked[0].score, how: "removed-name", matched: null, sites: []};
    }

    // lookup.py's framed_site: the site a traceback's innermost frame among them passes through.
    function framedSite(sites, frames) {
      for (var i = frames.length - 1; i >= 0; i--) {
        for (var j = 0; j < sites.length; j++) {
          if (sites[j].path === frames[i][0] && sites[j].line === frames[i][1]) return sites[j];
        }
      }
      return null;
    }

    // said.py's held_words: the site's own words that a folded message holds (its words are null when not known).
    function heldWords(site, folded) {
      return (site.said || []).filter(function (words) { return folded.includes(words); });
    }

    // said.py's worded_site: the site whose own words the message holds the most characters of; when it holds none
    // while the head passes some, the first known to pass none.
    function wordedSite(sites, head, message) {
      var folded = text.split(message).join(" "), best = null, most = 0;
      sites.forEach(function (site) {
        var held = 0;
        heldWords(site, folded).forEach(function (words) { held += Array.from(words).length; });
        if (held > most) { best = site; most = held; }
      });
      if (best === null && head.said && head.said.length) {
        best = sites.find(function (site) { return site.said !== null && site.said.length === 0; }) || null;
      }
      return best;
    }

    // said.py's shown_words: the longest of the site's own words the message holds, or null.
    function shownWords(site, message) {
      return heldWords(site, text.split(message).join(" ")).reduce(function (longest, words) {
        return longest === null || Array.from(words).length > Array.from(longest).length ? words : longest;
      }, null);
    }

    function adjusted(score, card, wording, query) {
      if (query.excClass && lastDotted(card.class) !== query.excClass && lastDotted(wording.class) !== query.excClass) {
        score -= scoring.class_penalty;
      }
      var frames = query.jaxFrames || [];
      if (frames.length && card.path === frames[frames.length - 1][0]) score += scoring.path_bonus;
      if (card.raised) score += scoring.raised_bonus;
      return pyRound(Math.min(score, 1.0), 4);
    }

    return {count: count, entryAt: entryAt, parseQuery: parseQuery, lookup: lookup, normalize: normalize, regexOf: regexOf,
            looksRaisedInXla: looksRaisedInXla, noCardMessage: noCardMessage, record: record,
            saysMissing: function (query) { return missingName(missingLine(query)) !== null; }, nameSaid: nameSaid,
            shownWords: function (site, query) { return shownWords(site, unquoted(query.message)); }};
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

  var loadedNames = null;

  // api/names.json, fetched once, when a message first says a module or a name is missing.
  function loadNames(matcher) {
    if (!loadedNames) {
      var href = matcher.record.names_href;
      loadedNames = href === undefined ? Promise.resolve(null) : fetch(new URL(href, root)).then(function (response) {
        if (!response.ok) throw new Error(href + ": HTTP " + response.status);
        return response.json();
      });
    }
    return loadedNames;
  }

  window.jaxErrorsLookup = {load: load, loadNames: loadNames, tokenSetRatio: tokenSetRatio,
                            tokenSortRatio: tokenSortRatio,
                            pyRound: pyRound, Matcher: Matcher, spaceClass: PY_SPACE_CLASS};

  function confidence(score, record) {
    var bands = record.scoring.confidence;
    return score >= bands.high ? "high" : score >= bands.medium ? "medium" : "low";
  }

  // `shown(site)`: the longest of the site's own words the message holds, or null (Matcher's shownWords).
  function render(list, matches, record, shown) {
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
      score.title = confidence(m.score, record) + " confidence: " +
        (m.how === "template" ? "the message fits this template" :
         m.how === "first-line" ? "its first line fits this template's" :
         m.how === "first-sentence" ? "it fits this template's first sentence" :
         m.how === "cut" ? "cut short, it fits the start of this template" :
         m.how === "removed-name" ? "the name the message says its module lacks is one the module removed" :
         m.how === "held" ? "the message fits a removed raise that added words to this one's message" :
         "a similar wording");
      var meta = document.createElement("span");
      meta.className = "lookup-meta";
      var notes = [m.entry.class + " · " + m.entry.path + ":" + m.entry.line];
      if (m.how === "removed-name") notes.push("a name its module removed: what the module said when it was read");
      if (m.how === "held") notes.push("the message a removed raise added words to: what raises it today");
      if (m.sites.length) notes.push("one of " + m.sites.length + " sites raising this message");
      var own = m.sites.length ? shown(m.entry) : null;
      if (own !== null) notes.push("this site's own words: \u201c" + own + "\u201d");
      if (m.matched && m.matched.until) notes.push("worded so up to " + m.matched.until);
      if (m.entry.live_id === null && m.entry.until) notes.push("no longer raised after " + m.entry.until);
      meta.textContent = notes.join(" · ");
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
    var releases = document.getElementById("lookup-releases");
    var sayReleases = function (message) {
      if (!releases) return;
      releases.textContent = message || "";
      releases.hidden = !message;
    };
    if (root.protocol === "file:") {
      input.disabled = true;
      say("Template lookup needs the site served over HTTP, for example with jax-errors serve.");
      return;
    }
    var timer = null;
    var run = function () {
      var pasted = input.value;
      if (!pasted.trim()) { list.replaceChildren(); say(""); sayReleases(""); return; }
      load().then(function (matcher) {
        if (input.value !== pasted) return;
        var query = matcher.parseQuery(pasted);
        var matches = matcher.lookup(query);
        render(list, matches, matcher.record, function (site) { return matcher.shownWords(site, query); });
        say(matches.length ? "" : matcher.noCardMessage(query));
        if (!matcher.saysMissing(query)) { sayReleases(""); return; }
        loadNames(matcher).then(function (history) {
          if (input.value === pasted) sayReleases(matcher.nameSaid(history, query));
        }, function (error) {
          if (input.value === pasted) sayReleases("What the releases say of names is unavailable: " + error.message);
        });
      }, function (error) { say("Template lookup is unavailable: " + error.message); });
    };
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 150); });
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) input.value = query;
    load().then(run, function (error) { say("Template lookup is unavailable: " + error.message); });
  }

  start();
})();
