// The estimator's live update re-renders its inputs out of band when the workload changes (other fields show).
// An answer lands a moment after its request left: a field the customer changed in between keeps what they
// typed, instead of the value the answer was computed from. The update the typing starts (the form's debounced
// trigger) then sends it. Served from our origin (the CSP allows no inline script).
(function () {
  "use strict";
  var sent = null; // {form, values}: each field's state as the form's last update sent it

  function fields(root) {
    return Array.prototype.filter.call(root.querySelectorAll("input[name], select[name], textarea[name]"), function (field) {
      return field.type !== "hidden"; // the server's own fields (e.g. which workload the inputs were drawn for)
    });
  }

  function stateOf(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked ? "on" : "";
    if (field.tagName === "SELECT" && field.multiple) {
      return Array.prototype.map.call(field.selectedOptions, function (option) { return option.value; }).join("\n");
    }
    return field.value;
  }

  function setState(field, state) {
    if (field.type === "checkbox" || field.type === "radio") {
      field.checked = state === "on";
      field.toggleAttribute("checked", field.checked);
    } else if (field.tagName === "SELECT") {
      var chosen = state.split("\n");
      Array.prototype.forEach.call(field.options, function (option) {
        option.selected = chosen.indexOf(option.value) !== -1;
        option.toggleAttribute("selected", option.selected);
      });
    } else if (field.tagName === "TEXTAREA") {
      field.textContent = state;
      field.value = state;
    } else {
      field.setAttribute("value", state);
      field.value = state;
    }
  }

  // Field name + its position among the fields of that name: a key that means the same field in both renderings.
  function keyed(root) {
    var seen = {};
    return fields(root).map(function (field) {
      var index = seen[field.name] = (seen[field.name] || 0) + 1;
      return { key: field.name + "\u0000" + index, field: field };
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("form[data-keep-edits]")) return;
    var values = {};
    keyed(form).forEach(function (item) { values[item.key] = stateOf(item.field); });
    sent = { form: form, values: values };
  });

  // Each live answer lists what is wrong in the result panel; the same message goes under its field too, where the
  // customer is typing (on a phone the panel is a screen away). The panel's list is the whole truth for the inputs
  // it was computed from, so every field's earlier message is cleared first.
  function showFieldErrors(form, result) {
    Array.prototype.forEach.call(form.querySelectorAll(".sizing-field.has-error"), function (box) {
      box.classList.remove("has-error");
      Array.prototype.forEach.call(box.querySelectorAll(":scope > .errorlist"), function (list) { list.remove(); });
      Array.prototype.forEach.call(box.querySelectorAll("[aria-invalid]"), function (input) {
        input.removeAttribute("aria-invalid");
      });
    });
    Array.prototype.forEach.call(result.querySelectorAll("[data-testid=estimate-errors] li[data-field]"), function (item) {
      var input = document.getElementById(item.getAttribute("data-field"));
      var box = input && form.contains(input) ? input.closest(".sizing-field") : null;
      if (!box) return;
      var list = box.querySelector(":scope > .errorlist");
      if (!list) {
        list = document.createElement("ul");
        list.className = "errorlist";
        box.appendChild(list);
      }
      var line = document.createElement("li");
      line.textContent = item.querySelector(".error-text").textContent;
      list.appendChild(line);
      box.classList.add("has-error");
      input.setAttribute("aria-invalid", "true");
    });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var form = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!form || !form.matches || !form.matches("form[data-keep-edits]")) return;
    // Once per answer, for its result panel (htmx fires this for the inputs swapped out of band too).
    if (event.detail.target !== document.querySelector(form.getAttribute("hx-target"))) return;
    showFieldErrors(form, event.detail.target);
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!sent || !sent.form.contains(target)) return;
    var edited = {};
    keyed(target).forEach(function (item) {
      var now = stateOf(item.field);
      if (item.key in sent.values && sent.values[item.key] !== now) edited[item.key] = now;
    });
    keyed(event.detail.fragment).forEach(function (item) {
      if (item.key in edited) setState(item.field, edited[item.key]);
    });
  });
})();
