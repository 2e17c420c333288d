// Pagefind's UI over the index built next to this site; works wherever the site is hosted.
(function () {
  var MAX_SEARCH_WORDS = 8;
  // Pagefind shows only pages holding every word it is given. When no page holds all of a
  // message's first 8, its first 6 are tried, then its first 4 (words a user pasted beyond the
  // message, or a wording that changed at its end).
  var FEWER_WORDS = [6, 4];
  var EXCERPT_WORDS = 24;
  var root = new URL(document.body.dataset.root || "./", window.location.href);
  if (root.protocol === "file:") {
    document.getElementById("search-offline").hidden = false;
    return;
  }
  var base = root.pathname;
  // The index is in shards (pagefind/shards.js names them), merged into one search: the first is
  // the UI's own Pagefind, the others are merged into it.
  var shards = window.jaxErrorsSearchShards || [];
  if (!shards.length || typeof PagefindUI === "undefined") {
    document.getElementById("search-unavailable").hidden = false;
    return;
  }
  var bundles = shards.map(function (shard) { return base + "pagefind/" + shard + "/"; });

  // What full-text search looks for in a pasted message: its words. The values JAX filled in
  // (`(3,)`, `f32[1]`, `'x'`, words with digits) are on no card, and Pagefind wants every word it
  // is given. Of a traceback, the message after its last frame; the exception class is dropped too.
  function searchWords(term, most) {
    var lines = term.split(/\r?\n/);
    var lastFrame = -1;
    lines.forEach(function (line, i) { if (/^\s*File "/.test(line)) lastFrame = i; });
    var text = lines.slice(lastFrame + 1).filter(function (line) { return !/^\s{4}/.test(line); }).join(" ");
    text = text.replace(/^\s*[A-Za-z_][\w.]*(Error|Exception|Warning)\s*:/, " ")
      .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, " ")
      .replace(/\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}|<[^<>]*>/g, " ")
      .replace(/[^\p{L}\p{N}_\s]+/gu, " ");
    var words = text.split(/\s+/).filter(function (w) { return w && !/\d/.test(w); });
    return words.slice(0, most || MAX_SEARCH_WORDS).join(" ") || term;
  }

  var fewer = new Map();  // a term (trimmed) -> the fewer words searched for it, where its first 8 found no page
  var latest = null, ui = null;

  // Pagefind's module, with every shard merged into it. The UI imports the same module (one per URL)
  // and is made once the merge is done, so that its first search, and the check below, see every shard.
  // A merged shard takes its own options: Pagefind gives the UI's only to the first.
  var shardOptions = {baseUrl: base, excerptLength: EXCERPT_WORDS};
  var pagefind = import(bundles[0] + "pagefind.js").then(async function (api) {
    await api.options(shardOptions);
    var merged = await Promise.allSettled(bundles.slice(1).map(function (bundle) {
      return api.mergeIndex(bundle, shardOptions);
    }));
    merged.forEach(function (outcome, i) {  // a shard that did not load leaves the others searchable
      if (outcome.status === "rejected") console.error("search index shard " + shards[i + 1], outcome.reason);
    });
    return api;
  });

  // Asked beforehand whether the term's words find a page.
  function findable(term) {
    latest = term;
    if (fewer.has(term.trim())) return;
    pagefind.then(async function (api) {
      if ((await api.search(searchWords(term))).results.length) return;
      for (var i = 0; i < FEWER_WORDS.length; i++) {
        var words = searchWords(term, FEWER_WORDS[i]);
        if ((await api.search(words)).results.length) {
          fewer.set(term.trim(), words);
          // The UI searches again only for a term it was not showing: a space makes it another.
          if (latest === term) ui.triggerSearch(term.trim() === term ? term + " " : term.trim());
          return;
        }
      }
    });
  }

  pagefind.then(function () {
    ui = new PagefindUI({
      element: "#search",
      bundlePath: bundles[0],
      baseUrl: base,
      showImages: false,
      showSubResults: false,
      excerptLength: EXCERPT_WORDS,
      translations: {placeholder: "Search error messages"},
      processTerm: function (term) { return fewer.get(term.trim()) || searchWords(term); },
    });
    var query = new URLSearchParams(window.location.search).get("q");
    if (query) {
      ui.triggerSearch(query);
      findable(query);
    }
  }, function (error) {
    document.getElementById("search-unavailable").hidden = false;
    console.error(error);
  });
  var waiting = null;
  document.getElementById("search").addEventListener("input", function (event) {
    if (!event.target.matches(".pagefind-ui__search-input")) return;
    clearTimeout(waiting);
    waiting = setTimeout(findable, 300, event.target.value);
  });
})();
