// The header and home search boxes are textareas, so that a pasted traceback keeps its lines on
// its way to search.html; Enter sends the form (Shift+Enter starts a new line).
(function () {
  document.querySelectorAll("form[role=search] textarea[name=q]").forEach(function (box) {
    box.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (box.value.trim()) box.form.requestSubmit();
      }
    });
  });
})();
