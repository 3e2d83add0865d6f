// The desks' rows as cards on a phone (backoffice/desk.css, QA back office 26): the column headings are hidden
// there, so each cell gets its column's heading in `data-label`, which the sheet writes above the value. The table
// itself is Django's; without this script a phone shows the cards without their headings.
(function () {
    "use strict";

    function labelCells() {
        document.querySelectorAll("#result_list").forEach(function (table) {
            var headings = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
                var text = th.querySelector(".text");
                // The selection column's heading is its select-all box: no words to give its cells.
                return th.classList.contains("action-checkbox-column") || !text ? "" : text.textContent.trim();
            });
            table.querySelectorAll("tbody tr").forEach(function (row) {
                Array.prototype.forEach.call(row.cells, function (cell, index) {
                    if (headings[index]) {
                        cell.dataset.label = headings[index];
                    }
                });
            });
        });
    }

    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", labelCells);
    } else {
        labelCells();
    }
})();
