// Pagefind's UI over the index built next to this site; works wherever the site is hosted.
(function () {
  var root = new URL(document.body.dataset.root || "./", window.location.href);
  if (root.protocol === "file:") {
    document.getElementById("search-offline").hidden = false;
    return;
  }
  var base = root.pathname;
  var ui = new PagefindUI({
    element: "#search",
    bundlePath: base + "pagefind/",
    baseUrl: base,
    showImages: false,
    showSubResults: false,
    excerptLength: 24,
    translations: {placeholder: "Search error messages"},
  });
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) {
    ui.triggerSearch(query);
  }
})();
