import { SHELL_TEXTS } from '@tessera/contract';
import type { Locator, Page } from 'playwright-core';

// What the tests read off the screen beyond a single look: where focus goes, passing texts.

/**
 * Presses Tab `times` times with the dialog open and tells, after each press, where the focus
 * went: into the dialog, onto the browser's own controls (seen as the body), or onto the page
 * behind, which a modal dialog must make inert.
 */
export async function focusAfterTabs(
  page: Page,
  dialog: Locator,
  times: number,
): Promise<('dialog' | 'browser' | 'page')[]> {
  const places: ('dialog' | 'browser' | 'page')[] = [];
  for (let i = 0; i < times; i++) {
    await page.keyboard.press('Tab');
    places.push(
      await dialog.evaluate((element) =>
        element.contains(document.activeElement)
          ? 'dialog'
          : document.activeElement === document.body
            ? 'browser'
            : 'page',
      ),
    );
  }
  return places;
}

let recordings = 0;

/**
 * Starts noting every text the element shows, in order, each change once: a state can pass
 * faster than a poll would see it. Resolves with a function that reads the texts noted so far.
 */
export async function recordTexts(element: Locator): Promise<() => Promise<string[]>> {
  recordings += 1;
  const key = `e2eRecordedTexts${recordings}`;
  await element.evaluate((node, key) => {
    const seen: string[] = [];
    (window as unknown as Record<string, string[]>)[key] = seen;
    new MutationObserver(() => {
      const text = node.textContent ?? '';
      if (text !== '' && seen.at(-1) !== text) seen.push(text);
    }).observe(node, { subtree: true, childList: true, characterData: true });
  }, key);
  return () =>
    element
      .page()
      .evaluate((key) => (window as unknown as Record<string, string[]>)[key] ?? [], key);
}

/**
 * Like recordTexts, for an element that is not on the screen yet: notes every text the element
 * with this accessible label (aria-label) shows, whenever it is there, each change once.
 */
export async function recordShownTexts(
  page: Page,
  label: string,
): Promise<() => Promise<string[]>> {
  recordings += 1;
  const key = `e2eRecordedTexts${recordings}`;
  await page.evaluate(
    ({ key, label }) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[key] = seen;
      const note = () => {
        const text = document.querySelector(`[aria-label="${label}"]`)?.textContent ?? '';
        if (text !== '' && seen.at(-1) !== text) seen.push(text);
      };
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    },
    { key, label },
  );
  return () =>
    page.evaluate((key) => (window as unknown as Record<string, string[]>)[key] ?? [], key);
}

/**
 * A screen's link in the sidebar's main navigation, where a person looks for it: a screen's own
 * text may link to another screen by the same name (the empty HD queue links to the Dashboard).
 */
function sidebarLink(page: Page, name: string): Locator {
  return page
    .getByRole('navigation', { name: SHELL_TEXTS.mainNavigation })
    .getByRole('link', { name, exact: true });
}

/**
 * Opens a screen as a person does, with its sidebar link, and waits until it shows. The address
 * changes at the click, the screens a moment later (React Router renders them in a transition);
 * the link is marked current in the same render that shows its screen.
 */
export async function openScreen(page: Page, name: string): Promise<void> {
  const link = sidebarLink(page, name);
  await link.click();
  await link.and(page.locator('[aria-current="page"]')).waitFor();
}
