// The CSRF token on pages that do not render one (docs/decisions/0183-csrf-token-only-where-a-form-needs-it.md).
// Pages without a form that needs it carry no token, so they set no CSRF cookie and stay the same for every
// anonymous visitor. When such a page posts anyway (the language switcher, an htmx request), the token is
// taken from the page if a form rendered one, else from the CSRF cookie, else fetched once from /csrf-token/.
(function () {
  "use strict";
  var fetched = null;

  function tokenInPage() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input && input.value) return input.value;
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function token() {
    var known = tokenInPage();
    if (known) return Promise.resolve(known);
    if (!fetched) {
      var url = document.body.getAttribute("data-csrf-url");
      fetched = fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) {
          if (!response.ok) throw new Error("csrf token: " + response.status);
          return response.json();
        })
        .then(function (body) { return body.token; })
        .catch(function (error) { fetched = null; throw error; });
    }
    return fetched;
  }

  // A form marked data-csrf-lazy gets the token as a hidden field, then is submitted as the visitor meant
  // (with the button they pressed). Without JavaScript it posts without one; the shop then answers with a
  // page that asks again with a token (gpurent/core/views.py::csrf_failure).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-csrf-lazy")) return;
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    event.preventDefault();
    var submitter = event.submitter || null;
    token().then(function (value) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = value;
      form.appendChild(input);
      if (submitter) form.requestSubmit(submitter); else form.requestSubmit();
    }, function () {
      form.submit();  // the server's CSRF failure page explains and offers the form again
    });
  });

  // htmx: every request that is not a GET carries the token in the X-CSRFToken header.
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.verb === "get" || tokenInPage()) return;
    event.preventDefault();
    token().then(function () { event.detail.issueRequest(true); }, function () { event.detail.issueRequest(true); });
  });
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb === "get") return;
    var value = tokenInPage();
    if (value) event.detail.headers["X-CSRFToken"] = value;
  });
})();
