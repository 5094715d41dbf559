/// The page's script: shows one step at a time (Next/Back, the arrow keys, Home/End, a click on
/// the ladder, the `#step-N` fragment), highlights the step's row, puts the step's knowledge table
/// beside it, draws a message's hex dump when its bytes are opened and lights up the bytes of the
/// field under the pointer or focus. It reads only the document: no request, no storage.
enum HTMLScript {
    static let source = #"""
    (function () {
      'use strict';
      var root = document.documentElement;
      root.classList.remove('nojs');
      // Copy buttons: one value whole (its item's data-hex, or data-text, written from the bytes the
      // page shows), or a whole calculation as plain text (# heading, # formula, name = value).
      // The clipboard API where the page may use it; otherwise (a page opened from file://) the text
      // is selected and copied with execCommand; if even that fails, the value stays selected.
      function valueOf(li, forScript) {
        var text = li.getAttribute('data-text');
        if (text !== null) { return forScript ? JSON.stringify(text) : text; }
        var hex = li.getAttribute('data-hex') || '';
        return forScript ? 'bytes.fromhex("' + hex + '")' : hex;
      }
      function calculationText(figure) {
        var lines = ['# ' + figure.querySelector('figcaption').textContent, '# ' + figure.querySelector('.formula').textContent];
        Array.prototype.forEach.call(figure.querySelectorAll('li[data-name]'), function (li) {
          lines.push(li.getAttribute('data-name') + ' = ' + valueOf(li, true));
        });
        return lines.join('\n') + '\n';
      }
      function tell(button, word) {
        var label = button.getAttribute('data-label') || button.textContent;
        button.setAttribute('data-label', label);
        button.textContent = word;
        setTimeout(function () { button.textContent = label; }, 2000);
      }
      function copyByHand(text, button, shown) {
        var area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.className = 'copy-source';
        document.body.appendChild(area);
        area.select();
        var copied = false;
        try { copied = document.execCommand('copy'); } catch (e) { copied = false; }
        document.body.removeChild(area);
        if (copied) { tell(button, button.getAttribute('data-copied')); return; }
        // Left selected on the page, for the reader's own Ctrl+C.
        if (shown && window.getSelection) {
          var range = document.createRange();
          range.selectNodeContents(shown);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
        }
        tell(button, button.getAttribute('data-selected'));
      }
      function copy(text, button, shown) {
        if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(function () { tell(button, button.getAttribute('data-copied')); },
                                                   function () { copyByHand(text, button, shown); });
        } else {
          copyByHand(text, button, shown);
        }
      }
      document.addEventListener('click', function (e) {
        var button = e.target && e.target.closest ? e.target.closest('button.copy, button.copy-all') : null;
        if (!button) { return; }
        if (button.classList.contains('copy-all')) {
          var figure = button.closest('figure.calc-step');
          if (figure) { copy(calculationText(figure), button, figure); }
        } else {
          var li = button.closest('li[data-hex]');
          if (li) { copy(valueOf(li, false), button, li.querySelector('code.value') || li); }
        }
      });
      Array.prototype.forEach.call(document.querySelectorAll('button.copy, button.copy-all'), function (b) { b.hidden = false; });
      var steps = Array.prototype.slice.call(document.querySelectorAll('section.step'));
      if (!steps.length) { return; }
      var rows = {};
      Array.prototype.forEach.call(document.querySelectorAll('#ladder g.row'), function (r) {
        rows[r.getAttribute('data-step')] = r;
      });
      var position = document.getElementById('position');
      var back = document.getElementById('back');
      var next = document.getElementById('next');
      var knowledgeNow = document.getElementById('knowledge-now');
      var scroller = document.getElementById('ladder-scroll');
      var format = position.getAttribute('data-format') || '{step}/{total}';
      var current = -1;

      function stepFromHash() {
        var m = /^#step-(\d+)$/.exec(location.hash || '');
        return m ? parseInt(m[1], 10) - 1 : null;
      }

      function showKnowledge(section) {
        while (knowledgeNow.firstChild) { knowledgeNow.removeChild(knowledgeNow.firstChild); }
        var id = section.getAttribute('data-knowledge');
        var table = id ? document.getElementById(id) : null;
        if (!table) { return; }
        var copy = table.cloneNode(true);
        copy.removeAttribute('id');
        knowledgeNow.appendChild(copy);
      }

      // The current row in the ladder's scroller: up and down as far as needed (a third from its
      // top), and sideways on a narrow screen so that its label is in view — with its arrow's start or
      // its dot when both fit, else the label whole, else the label's start.
      function revealRow(row) {
        if (!scroller || !row) { return; }
        var box = row.getBBox ? row.getBBox() : null;
        if (!box) { return; }
        var svg = document.getElementById('ladder');
        var scale = svg.getBoundingClientRect().height / (svg.viewBox.baseVal.height || 1);
        var top = box.y * scale, bottom = (box.y + box.height) * scale;
        if (top < scroller.scrollTop + 30 || bottom > scroller.scrollTop + scroller.clientHeight - 30) {
          scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 3);
        }
        var label = row.querySelector('text.label');
        var width = scroller.clientWidth;
        if (!label || scroller.scrollWidth <= width + 1) { return; }
        // x in the scroller's content, from a point on screen.
        var origin = scroller.getBoundingClientRect().left + scroller.clientLeft - scroller.scrollLeft;
        var r = label.getBoundingClientRect();
        var left = r.left - origin, right = r.right - origin;
        // The mark the label belongs to: the arrow's start, or the whole dot of a party acting alone.
        var line = row.querySelector('line.arrow'), dot = row.querySelector('circle.dot');
        var markLeft = null, markRight = null;
        if (line && line.getScreenCTM()) {
          markLeft = markRight = line.getScreenCTM().a * line.x1.baseVal.value + line.getScreenCTM().e - origin;
        } else if (dot) {
          var d = dot.getBoundingClientRect();
          markLeft = d.left - origin - 2; markRight = d.right - origin + 2;
        }
        if (markLeft !== null && Math.max(right, markRight) - Math.min(left, markLeft) + 16 <= width) {
          left = Math.min(left, markLeft); right = Math.max(right, markRight);
        }
        var margin = right - left + 16 <= width ? 8 : 0;
        if (right - left + 2 * margin > width) {
          scroller.scrollLeft = Math.max(0, left - 4);
        } else if (left - margin < scroller.scrollLeft) {
          scroller.scrollLeft = Math.max(0, left - margin);
        } else if (right + margin > scroller.scrollLeft + width) {
          scroller.scrollLeft = right + margin - width;
        }
      }

      // An explanation the page holds once: its repeats are filled in when their step is shown.
      function fillRepeats(scope) {
        Array.prototype.forEach.call(scope.querySelectorAll('p[data-same]'), function (p) {
          if (p.firstChild) { return; }
          var source = document.getElementById(p.getAttribute('data-same'));
          if (source) { p.textContent = source.textContent; }
        });
      }

      function show(index, updateHash) {
        index = Math.max(0, Math.min(steps.length - 1, index));
        if (index === current) { return; }
        if (current >= 0) {
          steps[current].hidden = true;
          var old = rows[current + 1];
          if (old) { old.classList.remove('current'); old.removeAttribute('aria-current'); }
        }
        current = index;
        var section = steps[index];
        fillRepeats(section);
        Array.prototype.forEach.call(section.querySelectorAll('details.bytes'), fillRows);
        section.hidden = false;
        var row = rows[index + 1];
        if (row) { row.classList.add('current'); row.setAttribute('aria-current', 'step'); revealRow(row); }
        showKnowledge(section);
        position.textContent = format.replace('{step}', String(index + 1)).replace('{total}', String(steps.length));
        back.disabled = index === 0;
        next.disabled = index === steps.length - 1;
        root.setAttribute('data-step', String(index + 1));
        if (updateHash !== false && location.hash !== '#step-' + (index + 1)) {
          try { history.replaceState(null, '', '#step-' + (index + 1)); } catch (e) { /* a page opened from disk may refuse */ }
        }
      }

      // Bytes an earlier step already showed: copy that step's table and dump in, once.
      function adopt(details) {
        var id = details.getAttribute('data-same');
        if (!id || details.getAttribute('data-adopted')) { return; }
        var source = document.getElementById(id);
        if (!source) { return; }
        details.setAttribute('data-hex', source.getAttribute('data-hex') || '');
        Array.prototype.forEach.call(source.querySelectorAll('.hint, .fields-scroll, .dump'), function (part) {
          var copy = part.cloneNode(true);
          Array.prototype.forEach.call(copy.querySelectorAll('[data-filled]'), function (p) {
            p.removeAttribute('data-filled');
            while (p.firstChild) { p.removeChild(p.firstChild); }
          });
          details.appendChild(copy);
        });
        details.setAttribute('data-adopted', '1');
      }

      // A bytes table's rows, built from its data-rows once (a line per field: depth, offset,
      // length, leaf or group, then the name, value and hex cells and any notes, as HTML).
      function fillRows(details) {
        adopt(details);
        var body = details.querySelector('table.fields tbody[data-rows]');
        if (!body) { return; }
        var lines = body.getAttribute('data-rows').split('\n');
        body.removeAttribute('data-rows');
        lines.forEach(function (line) {
          if (!line) { return; }
          var c = line.split('\t'), depth = parseInt(c[0], 10);
          var tr = document.createElement('tr');
          tr.className = (c[3] === '1' ? 'leaf' : 'group') + ' d' + Math.min(depth, 9);
          tr.tabIndex = 0;
          tr.setAttribute('data-o', c[1]);
          tr.setAttribute('data-l', c[2]);
          var cells = [['o', c[1]], ['f', c[4]], ['v', c[5]], ['x', c[6]]];
          cells.forEach(function (cell) {
            var td = document.createElement('td');
            td.className = cell[0];
            if (cell[0] === 'o') { td.textContent = cell[1]; } else { td.innerHTML = cell[1]; }
            if (cell[0] === 'f' && depth > 9) { td.style.paddingLeft = (0.4 + depth * 1.1) + 'em'; }
            for (var k = 7; cell[0] === 'v' && k < c.length; k++) {
              var note = document.createElement('span');
              note.className = 'note';
              note.innerHTML = '! ' + c[k];
              td.appendChild(note);
            }
            tr.appendChild(td);
          });
          body.appendChild(tr);
        });
      }

      function fillDump(details) {
        fillRows(details);
        var pre = details.querySelector('pre.hexdump');
        if (!pre || pre.getAttribute('data-filled')) { return; }
        var hex = details.getAttribute('data-hex') || '';
        var count = hex.length / 2;
        for (var line = 0; line < count; line += 16) {
          var off = document.createElement('span');
          off.className = 'off';
          off.textContent = ('0000' + line.toString(16)).slice(-4);
          pre.appendChild(off);
          for (var i = line; i < Math.min(line + 16, count); i++) {
            var b = document.createElement('b');
            b.textContent = hex.substr(i * 2, 2);
            pre.appendChild(b);
          }
          pre.appendChild(document.createTextNode('\n'));
        }
        pre.setAttribute('data-filled', '1');
      }

      function highlight(row, on) {
        var details = row.closest('details.bytes');
        if (!details) { return; }
        fillDump(details);
        var bytes = details.querySelectorAll('pre.hexdump b');
        var start = parseInt(row.getAttribute('data-o'), 10), length = parseInt(row.getAttribute('data-l'), 10);
        row.classList.toggle('hl', on);
        for (var i = start; i < start + length && i < bytes.length; i++) { bytes[i].classList.toggle('hl', on); }
      }

      function openBytes(index) {
        var details = steps[index].querySelector('details.bytes');
        if (!details) { return false; }
        details.open = true;
        fillDump(details);
        var summary = details.querySelector('summary');
        if (summary) { summary.focus(); }
        details.scrollIntoView({ block: 'nearest' });
        return true;
      }

      steps.forEach(function (s) { s.hidden = true; });
      back.addEventListener('click', function () { show(current - 1); });
      next.addEventListener('click', function () { show(current + 1); });
      Object.keys(rows).forEach(function (n) {
        var row = rows[n];
        row.addEventListener('click', function () { show(parseInt(n, 10) - 1); openBytes(current); });
        row.addEventListener('keydown', function (e) {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); show(parseInt(n, 10) - 1); openBytes(current); }
        });
      });
      Array.prototype.forEach.call(document.querySelectorAll('details.bytes'), function (d) {
        d.addEventListener('toggle', function () { if (d.open) { fillDump(d); } });
      });
      // One listener for every field row, copied tables included.
      function fieldRow(e) {
        var tr = e.target && e.target.closest ? e.target.closest('table.fields tbody tr') : null;
        return tr && (!e.relatedTarget || !tr.contains(e.relatedTarget)) ? tr : null;
      }
      document.addEventListener('mouseover', function (e) { var tr = fieldRow(e); if (tr) { highlight(tr, true); } });
      document.addEventListener('mouseout', function (e) { var tr = fieldRow(e); if (tr) { highlight(tr, false); } });
      // The reverse: a byte of the dump lights up the field it belongs to (and that field's bytes).
      function byteField(e) {
        var b = e.target && e.target.tagName === 'B' && e.target.parentElement && e.target.parentElement.classList.contains('hexdump') ? e.target : null;
        if (!b) { return null; }
        var details = b.closest('details.bytes');
        var index = Array.prototype.indexOf.call(details.querySelectorAll('pre.hexdump b'), b);
        var found = null;
        Array.prototype.forEach.call(details.querySelectorAll('table.fields tr.leaf'), function (tr) {
          var o = parseInt(tr.getAttribute('data-o'), 10), l = parseInt(tr.getAttribute('data-l'), 10);
          if (index >= o && index < o + l) { found = tr; }
        });
        if (found && !b.title) { var name = found.querySelector('td.f'); if (name) { b.title = name.textContent; } }
        return found;
      }
      document.addEventListener('mouseover', function (e) { var tr = byteField(e); if (tr) { highlight(tr, true); } });
      document.addEventListener('mouseout', function (e) { var tr = byteField(e); if (tr) { highlight(tr, false); } });
      document.addEventListener('focusin', function (e) { var tr = fieldRow(e); if (tr) { highlight(tr, true); } });
      document.addEventListener('focusout', function (e) { var tr = fieldRow(e); if (tr) { highlight(tr, false); } });
      document.addEventListener('keydown', function (e) {
        if (e.altKey || e.ctrlKey || e.metaKey) { return; }
        var tag = (e.target && e.target.tagName) || '';
        if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') { return; }
        if (e.key === 'ArrowRight' || e.key === 'n' || e.key === 'PageDown') { e.preventDefault(); show(current + 1); }
        else if (e.key === 'ArrowLeft' || e.key === 'p' || e.key === 'b' || e.key === 'PageUp') { e.preventDefault(); show(current - 1); }
        else if (e.key === 'Home') { e.preventDefault(); show(0); }
        else if (e.key === 'End') { e.preventDefault(); show(steps.length - 1); }
      });
      window.addEventListener('hashchange', function () {
        var n = stepFromHash();
        if (n !== null) { show(n, false); settle(); }
      });
      // Print: every bytes table open; back as it was afterwards.
      var opened = [];
      window.addEventListener('beforeprint', function () {
        fillRepeats(document);
        opened = [];
        Array.prototype.forEach.call(document.querySelectorAll('details.bytes'), function (d) {
          fillRows(d);
          if (!d.open) { d.open = true; opened.push(d); }
        });
      });
      window.addEventListener('afterprint', function () { opened.forEach(function (d) { d.open = false; }); opened = []; });
      var start = stepFromHash();
      show(start === null ? 0 : start, start !== null);
      // A #step-N link opens that step in place, with the column heads and the step's heading in
      // view: a wide page stays at its top (the ladder beside the step); on a narrow one (the step
      // above the ladder) the step's panel starts just below the controls. Done again once the page
      // has loaded, since the browser scrolls to the fragment's element by itself.
      function settle() {
        var controls = document.querySelector('nav.controls');
        var panel = document.getElementById('panel');
        if (window.matchMedia('(max-width: 1000px)').matches && panel && controls) {
          window.scrollTo(0, Math.max(0, panel.getBoundingClientRect().top + window.pageYOffset - controls.offsetHeight));
        } else {
          window.scrollTo(0, 0);
        }
      }
      if (start !== null) {
        if ('scrollRestoration' in history) { history.scrollRestoration = 'manual'; }
        settle();
        window.addEventListener('load', function () { setTimeout(settle, 0); });
      }
    })();

    """#
}
