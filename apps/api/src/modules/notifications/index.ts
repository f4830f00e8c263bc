// The notifications module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
export { registerNotificationHandlers } from "./notifications.handlers.ts";
export { forgetCustomerInNotifications } from "./notifications.privacy.ts";
export { notificationRoutes } from "./notifications.routes.ts";
export { type NewNotification, notify } from "./notifications.service.ts";
