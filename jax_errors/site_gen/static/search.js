// Pagefind's UI over the index built next to this site; works wherever the site is hosted.
(function () {
  var MAX_SEARCH_WORDS = 8;
  var root = new URL(document.body.dataset.root || "./", window.location.href);
  if (root.protocol === "file:") {
    document.getElementById("search-offline").hidden = false;
    return;
  }
  var base = root.pathname;

  // What full-text search looks for in a pasted message: its words. The values JAX filled in
  // (`(3,)`, `f32[1]`, `'x'`, words with digits) are on no card, and Pagefind wants every word it
  // is given. Of a traceback, the message after its last frame; the exception class is dropped too.
  function searchWords(term) {
    var lines = term.split(/\r?\n/);
    var lastFrame = -1;
    lines.forEach(function (line, i) { if (/^\s*File "/.test(line)) lastFrame = i; });
    var text = lines.slice(lastFrame + 1).filter(function (line) { return !/^\s{4}/.test(line); }).join(" ");
    text = text.replace(/^\s*[A-Za-z_][\w.]*(Error|Exception|Warning)\s*:/, " ")
      .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, " ")
      .replace(/\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}|<[^<>]*>/g, " ")
      .replace(/[^\p{L}\p{N}_\s]+/gu, " ");
    var words = text.split(/\s+/).filter(function (w) { return w && !/\d/.test(w); });
    return words.slice(0, MAX_SEARCH_WORDS).join(" ") || term;
  }

  var ui = new PagefindUI({
    element: "#search",
    bundlePath: base + "pagefind/",
    baseUrl: base,
    showImages: false,
    showSubResults: false,
    excerptLength: 24,
    translations: {placeholder: "Search error messages"},
    processTerm: searchWords,
  });
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) {
    ui.triggerSearch(query);
  }
})();
