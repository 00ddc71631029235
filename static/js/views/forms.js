// Forms that speak when it helps ("a new sheet opens with six « Ce champ est
// obligatoire » errors before anything is typed"). The engine's check stays the source of
// truth for what is wrong (its `problems` list); this module only decides which of those
// problems are shown, and keeps what a person is typing as a preview until the field commits.
//
//   const form = touchedForm();           // one per sheet module
//   form.reset(character.id);             // another character: nothing touched
//   const shown = form.visible(check);    // the check with only the problems to show
//   <input @blur=${form.leave(app, "job")}>            // left: its problems show from now on
//   <fieldset @focusout=${form.leaveGroup(app, "characteristics")}>  // the group left
//   finish: if (!check.ok) { form.touchAll(); focusFirstInvalid(); }  // tried to finish
//   const count = form.count(check);       // the count of problems, said once they all show
//
// A problem at field F is shown once F, or a group above F ("skills" for "skills.2.name"),
// has been left, or once the person tried to finish. A field already left shows its problem
// as they type: the sheets ask the engine's check on `input` (saving or only previewing).
// System-agnostic: the five systems' sheets use it.

import { t } from "../i18n.js";
import { noChange, nothing } from "../../vendor/lit-html/lit-html.js";
import { Directive, PartType, directive } from "../../vendor/lit-html/directive.js";
import { setCommittedValue } from "../../vendor/lit-html/directive-helpers.js";

/** Whether `field` is `group` or lies under it ("skills.2.name" under "skills"). */
function under(field, group) {
  return field === group || field.startsWith(`${group}.`);
}

/** Re-render once the current task is done: a blur may fire while a render is under way. */
function later(app) {
  queueMicrotask(() => app.rerender());
}

/**
 * A form's touched set and its previews. `reset(key)` starts over when the key (the
 * character's id) changes. `touch(field)` / `touchAll()` say true when something changed.
 */
export function touchedForm() {
  const s = { key: undefined, touched: new Set(), all: false, preview: new Map() };
  const form = {
    reset(key) {
      if (s.key === key) return false;
      Object.assign(s, { key, touched: new Set(), all: false, preview: new Map() });
      return true;
    },
    touch(field) {
      if (s.touched.has(field)) return false;
      s.touched.add(field);
      return true;
    },
    touchAll() {
      const was = s.all;
      s.all = true;
      return !was;
    },
    /** The person tried to finish or save: every problem is shown. */
    get attempted() {
      return s.all;
    },
    /** Whether a problem at `field` is shown. */
    shows(field) {
      if (s.all) return true;
      for (const group of s.touched) if (under(field, group)) return true;
      return false;
    },
    /** The check answer with only the problems to show (null and errors pass through). */
    visible(check) {
      if (!check || !Array.isArray(check.problems)) return check;
      return { ...check, problems: check.problems.filter((p) => form.shows(p.field ?? "")) };
    },
    /** A blur handler: the field was left. */
    leave(app, field) {
      return (e) => {
        // A field removed by a re-render (another page) was not left by the person.
        if (!e.target.isConnected) return;
        if (form.touch(field)) later(app);
      };
    },
    /** A focusout handler for a group (fieldset, section): left when focus goes outside it.
     * Several fields may be named (a section whose problems sit at two fields). */
    leaveGroup(app, ...fields) {
      return (e) => {
        const to = e.relatedTarget;
        if (!e.currentTarget.isConnected || (to && e.currentTarget.contains(to))) return;
        let changed = false;
        for (const field of fields) changed = form.touch(field) || changed;
        if (changed) later(app);
      };
    },
    /**
     * What a sheet's count of problems may say, given the whole check (not `visible`'s):
     * `null` while the check has not answered, `{ n: 0 }` when there is no problem, `{ n,
     * later: true }` while some problem is not yet shown at its field, `{ n }` once every one
     * is. A count said before the messages it counts ("7 règles encore à respecter (voir les
     * messages sous les champs)" over a fresh sheet with no message anywhere) could not be
     * followed: say the count only with its messages, and before that how to see them.
     */
    count(check) {
      const problems = check?.problems;
      if (!Array.isArray(problems)) return null;
      const n = problems.length;
      return n && !problems.every((p) => form.shows(p.field ?? "")) ? { n, later: true } : { n };
    },
    /** What is being typed in `field` before it commits (undefined when nothing). */
    preview(field) {
      return s.preview.get(field);
    },
    setPreview(field, value) {
      s.preview.set(field, value);
    },
    clearPreview(field) {
      return s.preview.delete(field);
    },
    /** Every preview, as [field, value] pairs (to build the sheet as being typed). */
    previews() {
      return [...s.preview.entries()];
    },
  };
  return form;
}

/**
 * After a refused finish: bring the first field marked invalid into view and focus it
 * (after the re-render that marks it). `root` limits the search (default: the document).
 */
export function focusFirstInvalid(root = null) {
  requestAnimationFrame(() => {
    const scope = root ?? document;
    const el = scope.querySelector("[aria-invalid=true]");
    if (!el) return;
    const target = el.matches("input, select, textarea, button") ? el : el.querySelector("input, select, textarea, button") ?? el;
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  });
}

/** Why an engine-backed button is disabled: the engine still starting, or an action under
 * way (null when neither). Give it to ui.disabledWhy with the page's own reasons first. */
export function engineWhy(app, busy = false) {
  if (!app.engineAnswers()) return t("forms.engine_wait");
  return busy ? t("forms.busy") : null;
}

/**
 * `.value=${typedValue(v)}`: the field shows `v`, like lit's `live()` (the value on screen is
 * compared, not the last one drawn, so a refused edit is put back) except while a person is
 * typing in it: a field that has the focus and holds something other than what was last drawn
 * keeps it. A redraw before the field is left (the table changed in another tab or arrived
 * from the live table, the engine became ready, a check answered) put the saved value back
 * over the typing, and the change event then saw nothing to change: the edit was lost.
 */
export const typedValue = directive(class extends Directive {
  constructor(partInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.PROPERTY || partInfo.name !== "value") throw new Error("typedValue() binds .value only");
    this.drawn = undefined;
  }

  render(value) {
    return value;
  }

  update(part, [value]) {
    if (value === noChange || value === nothing) return value;
    const el = part.element;
    const typing = this.drawn !== undefined && el.value !== this.drawn && el.getRootNode().activeElement === el;
    if (typing) return noChange;
    this.drawn = String(value ?? "");
    if (el.value === this.drawn) return noChange;
    setCommittedValue(part);
    return value;
  }
});
