// What the email feature offers the others: the admins' list of mail not filed and the mailbox import (Email
// Settings), and a ticket's received emails with "View original email" (the ticket's conversation).
export { useTicketEmails } from "./api/email.api.ts";
export { MailboxImport } from "./components/mailbox-import.tsx";
export { OriginalEmailButton } from "./components/original-email.tsx";
export { UnfiledMail } from "./components/unfiled-mail.tsx";
