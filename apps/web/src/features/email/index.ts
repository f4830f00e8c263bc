// What the email feature offers the others: the admins' list of mail not filed, shown in Email Settings.
export { UnfiledMail } from "./components/unfiled-mail.tsx";
