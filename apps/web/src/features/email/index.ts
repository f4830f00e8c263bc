// What the email feature offers the others: the admins' list of mail not filed and the mailbox import, shown in Email
// Settings.
export { MailboxImport } from "./components/mailbox-import.tsx";
export { UnfiledMail } from "./components/unfiled-mail.tsx";
