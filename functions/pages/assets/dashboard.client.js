// The dashboard's one script, served as /dashboard/assets/dashboard.<hash>.js (script-src 'self').
// Light enhancement only: every page works without it. It adds copy buttons, confirmation
// dialogs and live updates of the parts of a page marked `data-live`.
(() => {
  'use strict';

  // Copy buttons: `data-copy` names the element whose text goes to the clipboard.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.copy);
      if (!source) return;
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(source.textContent.trim());
        button.textContent = 'Copied';
      } catch {
        // No clipboard (an insecure origin, a refused permission): select the text for Ctrl+C.
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = 'Selected: press Ctrl+C';
      }
      setTimeout(() => (button.textContent = label), 2500);
    });
  }

  // An answer that refuses what a form sent (a field to correct, a filter refused) opens at its top,
  // where on a phone the form is out of view: the keyboard starts at the first field marked invalid,
  // or at the form's error summary when no field is to blame (an invitation already sent). A page
  // that names its own field to start at (`autofocus`: the password, after a wrong one) keeps it.
  // An answer that tells what an action did (a notice, a key shown once, a test event's result)
  // puts the keyboard, and the screen, on that.
  const correction = document.querySelector('form [aria-invalid="true"]') || document.querySelector('[data-error-summary]');
  const start = correction || document.querySelector('[data-outcome]');
  if (start && !document.querySelector('[autofocus]')) start.focus();

  // Confirmations: a form with `data-confirm` asks in a dialog first. Without this script the
  // server asks on a page of its own, so the action is never taken by one click either way.
  const dialog = document.getElementById('confirm-dialog');
  if (dialog && typeof dialog.showModal === 'function') {
    const message = dialog.querySelector('[data-confirm-message]');
    const accept = dialog.querySelector('[data-confirm-accept]');
    const cancel = dialog.querySelector('[data-confirm-cancel]');
    let pending = null;
    for (const form of document.querySelectorAll('form[data-confirm]')) {
      form.addEventListener('submit', (event) => {
        if (form.dataset.confirmed === 'yes') return;
        event.preventDefault();
        pending = { form, submitter: event.submitter };
        message.textContent = form.dataset.confirm;
        accept.textContent = 'Confirm';
        dialog.showModal();
        cancel.focus();
      });
    }
    accept.addEventListener('click', () => {
      if (!pending) return;
      const { form, submitter } = pending;
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'confirmed';
      field.value = 'yes';
      form.appendChild(field);
      form.dataset.confirmed = 'yes';
      dialog.close();
      form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    });
    cancel.addEventListener('click', () => {
      pending = null;
      dialog.close();
    });
  }

  // A form that makes a key or a secret (`data-once`) is sent once: a second click while the first
  // sending is on its way would be refused by the server (409), and that answer would replace the
  // one showing the secret. Listened to after the confirmation dialog's listener, so a sending the
  // dialog holds back is not counted.
  for (const form of document.querySelectorAll('form[data-once]')) {
    form.addEventListener('submit', (event) => {
      if (event.defaultPrevented) return;
      if (form.dataset.sent === 'yes') event.preventDefault();
      else form.dataset.sent = 'yes';
    });
  }
  // A page brought back by the back button keeps its state: let its forms be sent, so the server
  // says why it refuses one already sent rather than the button doing nothing.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) for (const form of document.querySelectorAll('form[data-once]')) delete form.dataset.sent;
  });

  // Live parts: while an element carries `data-live`, the page is fetched again every few
  // seconds and each live part replaced by its new version (no reload, focus and scroll kept).
  const liveParts = () => [...document.querySelectorAll('[data-live]')];
  if (liveParts().length > 0) {
    const refresh = async () => {
      try {
        const answer = await fetch(window.location.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
        // A page whose filter was refused (400) is the page all the same, its live parts with it.
        if (!answer.ok && answer.status !== 400) return true;
        const next = new DOMParser().parseFromString(await answer.text(), 'text/html');
        for (const part of liveParts()) {
          const replacement = next.getElementById(part.id);
          if (replacement) part.replaceWith(document.adoptNode(replacement));
        }
      } catch {
        // The network blinked; try again at the next tick.
      }
      return liveParts().length > 0;
    };
    const tick = async () => {
      if (await refresh()) setTimeout(tick, 2000);
    };
    setTimeout(tick, 2000);
  }
})();
