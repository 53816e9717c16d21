// The app in the browser against the stub's answers, with no server: MSW's service worker
// (`npx msw init public/ --save` puts mockServiceWorker.js in the folder your dev server serves).
// Urls in the answers name the page's origin, as the service's name its own.
export async function startStub(): Promise<void> {
  const { setupWorker } = await import('msw/browser');
  const { createHandlers } = await import('workplace-admin-stub/msw');
  await setupWorker(...createHandlers()).start({ onUnhandledRequest: 'bypass' });
}

// In main.ts, before the app renders (imported only in development, so never in production):
//   if (import.meta.env.DEV) await (await import('./mocks/browser')).startStub();
