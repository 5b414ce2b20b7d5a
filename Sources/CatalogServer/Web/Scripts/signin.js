// The sign-in form's show-password toggle. The server draws the button hidden, with its words in
// the page's language: without a script the field stays a plain password field. The button is
// `type="button"`, so it never submits the form, and the field keeps its name, so the form posts
// the password (and its CSRF token) exactly as before. Focus stays on the button.

import { doc } from "./page.js";

export function startSignIn() {
  const button = doc.getElementById("show-password");
  const field = doc.getElementById("password");
  if (!button || !field) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    const shown = field.type === "password";
    field.type = shown ? "text" : "password";
    button.setAttribute("aria-pressed", shown ? "true" : "false");
  });
  // Hidden again as the form is sent: a page restored by Back never shows the password.
  field.form?.addEventListener("submit", () => {
    field.type = "password";
    button.setAttribute("aria-pressed", "false");
  });
}
