// What the chat feature offers the others (the AI Assistant page's cards); everything else in it is its own business.
export { ChatShareCard } from "./components/chat-share-card.tsx";
export { WidgetSnippetCard } from "./components/widget-snippet-card.tsx";
