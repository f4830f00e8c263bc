import { helpArticlePath } from "@cove/contract/kb.ts";
import { kbSlug } from "../modules/kb/kb.queries.ts";
import type { Tx } from "../platform/db.ts";
import { kbArticles, kbCategories } from "./schema/kb.ts";

/**
 * The demo shop's help center, written for Acme Outdoor Co. The policies are one set and every article agrees with it
 * (and with the demo tickets): the AI assistant answers the public demo from these, so a contradiction here would
 * become a wrong answer there.
 *
 * - Shipping (US): orders placed by 2 p.m. ET on a business day ship that day. Standard 3-5 business days, $5.95, free
 *   over $50; Expedited 2 business days, $12.95; Overnight next business day, $24.95 (order by 12 p.m. ET).
 * - International: Canada, the UK, the EU, Australia, New Zealand and Japan. $19.95, free over $150; 7-14 business
 *   days (Canada 5-8). Duties and taxes are paid at checkout. Fuel canisters and bear spray ship within the US only.
 * - Returns: 30 days from delivery, unused with tags; free prepaid label in the US; refund 3 business days after the
 *   return reaches us (the bank takes 5-10 more). Exchanges are free.
 * - Warranty: 2 years against defects. Support: chat and phone Mon-Fri 8 a.m.-6 p.m. ET, Sat 9 a.m.-1 p.m. ET; email
 *   within one business day.
 * - Accounts: reset links last 1 hour; passwords have at least 8 characters; 5 wrong passwords lock sign-in for 15
 *   minutes.
 */
interface DemoArticle {
  title: string;
  category: string;
  questions: string[];
  body: string;
  status?: "draft";
  views: number;
  helpful: number;
  notHelpful: number;
}

const CATEGORIES = [
  "Account",
  "Billing & Payments",
  "Shipping & Delivery",
  "Returns & Exchanges",
  "Troubleshooting",
  "Product Care",
  "Contact & Sales",
] as const;

const SUPPORT_HOURS = "Monday to Friday, 8 a.m. to 6 p.m. Eastern Time, and Saturday, 9 a.m. to 1 p.m. Eastern Time";

const ARTICLES: DemoArticle[] = [
  {
    title: "How do I reset my password?",
    category: "Account",
    questions: [
      "I forgot my password",
      "How can I change my password?",
      "I can't sign in to my account",
      "Password reset email not arriving",
      "My account is locked",
    ],
    views: 412,
    helpful: 96,
    notHelpful: 7,
    body: `You can set a new password yourself in a couple of minutes.

## Reset it

1. Go to the **Sign in** page and choose **Forgot your password?**
2. Enter the email address you use for your Acme account and select **Send reset link**.
3. Open the email from Acme Outdoor Co. and select **Choose a new password**. The link works **once** and for **1 hour**.
4. Type your new password twice. It needs **at least 8 characters**.
5. Sign in with the new password. You stay signed in on this device; other devices are signed out.

## The email didn't arrive

- Wait five minutes and check your spam or promotions folder.
- Make sure you typed the address you signed up with. If you usually check out as a guest, you may not have an account yet: see {{Creating an account or checking out as a guest}}.
- A link older than 1 hour no longer works. Request a new one; only the newest link is valid.

## "Your account is locked"

After **5 wrong passwords** in a row, sign-in pauses for **15 minutes** to protect your account. Wait, then sign in or reset your password. If it still fails, contact us and we'll check your account.`,
  },
  {
    title: "Creating an account or checking out as a guest",
    category: "Account",
    questions: [
      "Do I need an account to order?",
      "How do I create an account?",
      "Can I add a guest order to my account?",
      "What are the benefits of an account?",
    ],
    views: 168,
    helpful: 41,
    notHelpful: 3,
    body: `You don't need an account to order: choose **Check out as guest** at checkout.

## Why create one

- Track every order and start returns from **My Account → Orders**.
- Save addresses and payment methods for faster checkout.
- Keep gift card balances and wish lists in one place.

## Create an account

Choose **Sign in → Create account**, enter your name, email and a password of at least 8 characters. We send a confirmation email; the account is ready once you open the link in it.

## Add an earlier guest order

Create the account with the **same email address** you used for the guest order. Orders from the last 12 months with that address appear under **Orders** automatically.`,
  },
  {
    title: "Updating your email, address or newsletter settings",
    category: "Account",
    questions: [
      "How do I change my email address?",
      "How do I update my shipping address?",
      "How do I unsubscribe from emails?",
      "How do I delete my account?",
    ],
    views: 97,
    helpful: 22,
    notHelpful: 2,
    body: `Everything about your account lives in **My Account → Profile**.

- **Email address**: enter the new one and confirm it with the link we send there. Until you confirm, we keep using the old address.
- **Saved addresses**: add, edit or delete them under **Addresses**. Changing a saved address does not change orders already placed; see {{Changing the address of an order or cancelling it}}.
- **Newsletter**: switch it off under **Email preferences**, or use the unsubscribe link at the bottom of any newsletter. Order and shipping emails still arrive, because they are about your purchases.

## Deleting your account

Contact us and we'll delete your account and personal data within 30 days. Order records we must keep for tax purposes are kept, without any link to a login.`,
  },
  {
    title: "Which payment methods do you accept?",
    category: "Billing & Payments",
    questions: [
      "Can I pay with PayPal?",
      "Do you take Apple Pay?",
      "What cards do you accept?",
      "When is my card charged?",
    ],
    views: 133,
    helpful: 30,
    notHelpful: 1,
    body: `We accept:

- Visa, Mastercard, American Express and Discover
- PayPal
- Apple Pay and Google Pay
- Acme Outdoor gift cards (and a card for the rest of the total)

## When you are charged

When you place an order we **authorize** the amount on your card, and we **charge** it when the order ships. If part of an order ships later, each part is charged when it ships.

All prices are in US dollars. Cards from outside the US work too; your bank converts the amount and may add its own fee.`,
  },
  {
    title: "Why do I see two charges for one order?",
    category: "Billing & Payments",
    questions: [
      "I was charged twice",
      "Double charge on my card",
      "There is a pending charge on my statement",
      "Why was I charged more than once?",
    ],
    views: 221,
    helpful: 55,
    notHelpful: 6,
    body: `Most of the time this is a **pending authorization**, not a second charge.

When you order, your bank holds the amount (the authorization). When the order ships, we charge it, and the hold should disappear. For a few days both can show on your statement.

- The pending hold drops off by itself within **3-5 business days**.
- If the order shipped in parts, you see one charge per shipment. Together they add up to your order total.
- If you edited an order, the first hold is released and a new one placed.

## Still two charges after 5 business days?

Contact us with your order number and the last 4 digits of the card. If we charged you twice, we refund the extra charge the same day.`,
  },
  {
    title: "Using promo codes and price adjustments",
    category: "Billing & Payments",
    questions: [
      "My discount code isn't working",
      "Can I use two promo codes?",
      "Do you price match?",
      "The price dropped after I bought it",
      "How do I get the newsletter discount?",
    ],
    views: 189,
    helpful: 37,
    notHelpful: 9,
    body: `Enter the code in the **Promo code** box at checkout and select **Apply**. The discount shows in the order summary before you pay.

## Why a code may not work

- It has expired. The newsletter welcome code gives **15% off your first full-price order** and is valid for **30 days** after you sign up.
- Only **one code per order**; codes can't be combined.
- Codes don't apply to gift cards, and most don't apply to items already on sale.

## Price adjustments

If something you bought at full price drops in price on our site within **14 days** of your purchase, contact us and we refund the difference to your original payment method, once per item. We don't match other stores' prices.`,
  },
  {
    title: "Gift cards: balance, expiry and lost cards",
    category: "Billing & Payments",
    questions: [
      "How do I check my gift card balance?",
      "Do gift cards expire?",
      "I lost my gift card",
      "Can I return a gift card?",
    ],
    views: 88,
    helpful: 19,
    notHelpful: 1,
    body: `Acme Outdoor gift cards come as an email (digital) or as a plastic card, from $25 to $500.

- **Balance**: enter the card number at checkout and the remaining balance appears, or add the card under **My Account → Gift cards**.
- **Expiry**: our gift cards **never expire** and have no fees.
- **Paying**: use a gift card together with another payment method if the order costs more than the balance.
- **Lost card**: contact us with the order number of the gift card purchase, and we cancel the old card and issue a new one for the remaining balance.

Gift cards can't be returned, exchanged or redeemed for cash, except where the law requires it.`,
  },
  {
    title: "Getting an invoice or a VAT receipt",
    category: "Billing & Payments",
    questions: [
      "How do I get an invoice?",
      "I need a receipt for my company",
      "Can you add my VAT number to the invoice?",
      "Where is my receipt?",
    ],
    views: 64,
    helpful: 15,
    notHelpful: 2,
    body: `Every order has an invoice you can download as a PDF from **My Account → Orders → Invoice**. Guest orders get the same PDF attached to the shipping confirmation email.

## Company details and VAT numbers

Add your company name and VAT or tax number in the **Company (optional)** fields at checkout, and they print on the invoice.

Forgot to add them? Contact us with the order number and the details within **60 days** of the order, and we send a corrected invoice within one business day.`,
  },
  {
    title: "Shipping options, costs and delivery times",
    category: "Shipping & Delivery",
    questions: [
      "How long does shipping take?",
      "How much is shipping?",
      "Do you offer free shipping?",
      "Can I get my order overnight?",
      "When will my order ship?",
    ],
    views: 530,
    helpful: 118,
    notHelpful: 8,
    body: `Orders placed by **2 p.m. Eastern Time** on a business day (Monday to Friday) leave our warehouse **the same day**. Later orders ship the next business day.

## Within the United States

| Option | Delivery time | Cost |
|---|---|---|
| Standard | 3-5 business days | $5.95, **free on orders over $50** |
| Expedited | 2 business days | $12.95 |
| Overnight | next business day (order by 12 p.m. ET) | $24.95 |

Delivery times count from the day the order ships. We ship to all 50 states, P.O. boxes (Standard only) and APO/FPO addresses.

Fuel canisters and bear spray can only go by ground, so they ship Standard, within the US only.

Shipping outside the US? See {{Do you ship internationally?}}`,
  },
  {
    title: "Do you ship internationally?",
    category: "Shipping & Delivery",
    questions: [
      "Do you ship to Canada?",
      "Can I order from outside the US?",
      "Which countries do you ship to?",
      "Will I pay customs duties?",
      "How long does international shipping take?",
    ],
    views: 302,
    helpful: 71,
    notHelpful: 4,
    body: `Yes. We ship to **Canada, the United Kingdom, every European Union country, Australia, New Zealand and Japan**.

## Cost and time

- **International Standard**: **$19.95**, **free on orders over $150**.
- Delivery takes **7-14 business days** after the order ships (**5-8** to Canada).
- Every international parcel is tracked; the tracking link arrives by email when it ships.

## Duties and taxes

Duties and import taxes are **calculated and paid at checkout**, so there is nothing more to pay when the parcel arrives.

## What can't ship abroad

Fuel canisters and bear spray are dangerous goods for air transport and ship **within the US only**. They are removed from the cart when you choose an international address.

Returns from outside the US are welcome; see {{How do I return an item?}} for who pays the return postage.`,
  },
  {
    title: "Where is my order? Tracking your package",
    category: "Shipping & Delivery",
    questions: [
      "Where is my order?",
      "How do I track my package?",
      "Has my order shipped?",
      "My tracking number isn't working",
      "Tracking says label created",
    ],
    views: 688,
    helpful: 142,
    notHelpful: 11,
    body: `When your order ships we email you a **tracking number and link** (subject: "Your Acme order is on its way").

## Find your tracking

- **With an account**: go to **My Account → Orders**, open the order and select **Track package**.
- **Guest order**: open the **Order status** page from the footer of our website and enter your **order number** and **email address**.

## Reading the status

- **Order received / processing**: we're packing it. Orders placed by 2 p.m. ET on a business day ship the same day.
- **Label created**: the parcel is packed and waiting for the carrier. The carrier's tracking can take **up to 24 hours** to show the first scan.
- **In transit / out for delivery**: on its way; see {{Shipping options, costs and delivery times}} for how long each option takes.

If tracking says "label created" for more than **3 business days**, or hasn't moved for **5 business days**, contact us with your order number and we'll chase the carrier. If the parcel is late, lost or damaged, see {{My package is late, lost or arrived damaged}}.`,
  },
  {
    title: "Changing the address of an order or cancelling it",
    category: "Shipping & Delivery",
    questions: [
      "Can I change my delivery address?",
      "How do I cancel my order?",
      "I entered the wrong address",
      "Can I add an item to my order?",
    ],
    views: 154,
    helpful: 33,
    notHelpful: 3,
    body: `We start packing quickly, so act fast.

## Within 1 hour of ordering

Open the order from your confirmation email (or **My Account → Orders**) and choose **Change address** or **Cancel order**. A cancelled order's authorization is released right away; your bank may take 3-5 business days to show it.

## After 1 hour

Contact us with your order number as soon as you can. If the order hasn't shipped yet, we can still change the address or cancel it.

## Already shipped?

We can't redirect or cancel a parcel in transit. Once it arrives, send it back for free within 30 days; see {{How do I return an item?}}

To add an item, place a second order; orders to the same address on the same day usually ship together, and if both were charged shipping we refund the second one.`,
  },
  {
    title: "My package is late, lost or arrived damaged",
    category: "Shipping & Delivery",
    questions: [
      "My package says delivered but I didn't get it",
      "My order arrived damaged",
      "My package is lost",
      "My order is late",
      "An item is missing from my order",
    ],
    views: 197,
    helpful: 44,
    notHelpful: 5,
    body: `Sorry about that; we'll put it right.

## Marked delivered, but not there

1. Check around your door, mailroom and with neighbours; carriers sometimes mark a parcel delivered a day early.
2. Wait **24 hours**; most "missing" parcels turn up by then.
3. Still nothing? Contact us with your order number. We open a claim with the carrier and **send a replacement** (or refund you) without waiting for the claim.

## Late

If tracking hasn't moved for **5 business days** (10 for international orders), contact us and we'll find out what happened.

## Damaged or missing items

Contact us within **30 days of delivery** with your order number and a photo of the damage or of the packing slip. We send a replacement or the missing item at no cost, and you don't need to return a damaged item unless we ask.`,
  },
  {
    title: "How do I return an item?",
    category: "Returns & Exchanges",
    questions: [
      "What is your return policy?",
      "How do I send something back?",
      "Can I get a return label?",
      "How many days do I have to return?",
      "Do returns cost anything?",
      "Can I return a gift?",
    ],
    views: 845,
    helpful: 187,
    notHelpful: 12,
    body: `You can return anything within **30 days of delivery** if it is **unused, in its original condition, with the tags on**.

## Start a return

1. Go to **My Account → Orders**, open the order and select **Return or exchange items**. Guest orders: use the **Returns** page in our website's footer with your order number and email address.
2. Choose the items and a reason.
3. In the US you get a **free prepaid return label** (print it or show the QR code at a UPS store). Drop the parcel off within **14 days** of creating the return.
4. Pack the items in any sturdy box, with the packing slip if you still have it.

## Returns from outside the US

Start the return the same way. You send the parcel with a carrier of your choice and pay the postage; we recommend a tracked service.

## Good to know

- Your refund goes out **within 3 business days** of the return reaching our warehouse; see {{When will I get my refund?}}
- Original shipping charges are refunded only if the item was faulty or we sent the wrong thing.
- **Final sale**: gift cards, items marked "Final sale", and opened fuel canisters can't be returned.
- Received a gift? Start the return with the order number from the gift note and you get an Acme gift card for the value.

Broken after use? That's a warranty case: see {{Our warranty: broken or faulty gear}}.`,
  },
  {
    title: "Exchanging an item for another size or colour",
    category: "Returns & Exchanges",
    questions: [
      "Can I exchange for a different size?",
      "How do exchanges work?",
      "The item doesn't fit",
      "Can I swap the colour?",
    ],
    views: 276,
    helpful: 58,
    notHelpful: 4,
    body: `Exchanges are **free**, within the same **30 days of delivery** as returns, for unused items with the tags on.

1. Start a return (**My Account → Orders → Return or exchange items**) and choose **Exchange** instead of **Refund**.
2. Pick the new size or colour. If it's in stock we reserve it for you.
3. Send the original back with the prepaid label (US).

We ship the new item as soon as the carrier **scans your return**, so you don't wait for it to reach us. The exchange ships by Standard shipping at no cost.

Want a different product altogether? Return the first item for a refund and place a new order. Outside the US, exchanges work the same way, but you pay the postage back to us.`,
  },
  {
    title: "When will I get my refund?",
    category: "Returns & Exchanges",
    questions: [
      "Where is my refund?",
      "How long do refunds take?",
      "I returned an item but haven't been refunded",
      "Will I get my money back on the original card?",
    ],
    views: 312,
    helpful: 64,
    notHelpful: 9,
    body: `We refund within **3 business days** of your return **reaching our warehouse**, and email you when we do.

- The refund goes to your **original payment method**. Gift card payments are refunded to a new gift card.
- Your bank then takes **5-10 business days** to show it on your statement.
- Returns take a while to travel: US returns usually reach us **3-7 business days** after drop-off. You can follow them with the tracking number on your return label.

If it has been more than 10 business days since the carrier shows your return as delivered to us, contact us with your order number.`,
  },
  {
    title: "Our warranty: broken or faulty gear",
    category: "Returns & Exchanges",
    questions: [
      "My tent pole broke",
      "Is my item under warranty?",
      "My gear broke after a few months",
      "How do I make a warranty claim?",
      "Do you repair gear?",
    ],
    views: 241,
    helpful: 57,
    notHelpful: 3,
    body: `Everything we sell is covered for **2 years from purchase** against defects in materials and workmanship: seams that fail, zippers that split, poles that snap in normal use, stoves that stop working.

## Make a claim

Contact us with your **order number** (or proof of purchase) and a **photo** of the problem. We usually answer within one business day with one of:

- a **replacement part** (tent poles, buckles, stove parts) shipped right away,
- a **free repair**, with prepaid shipping both ways, or
- a **replacement** of the whole item, when a repair won't do. You usually don't need to send the old one back.

## Not covered

Normal wear and tear, accidents (a tent pole stepped on), damage from misuse or alterations, and gear bought second-hand. We still repair those at cost: ask us for a quote.

Every Ridgeline tent comes with a pole **repair sleeve**: slide it over a cracked section to finish your trip.`,
  },
  {
    title: "My stove won't light or has a weak flame",
    category: "Troubleshooting",
    questions: [
      "My Ember stove doesn't light",
      "Stove flame is weak in the cold",
      "Stove not working at altitude",
      "The igniter doesn't spark",
    ],
    views: 119,
    helpful: 28,
    notHelpful: 4,
    body: `Most stove problems come from cold fuel or a blocked jet. Work through these in order.

1. **Warm the canister.** In the cold or at altitude the gas pressure drops. Keep the canister in your jacket or sleeping bag before cooking, and use a **four-season blend** (isobutane/propane) below freezing.
2. **Check the connection.** Screw the stove on firmly but without forcing it, and look at the **O-ring**: a cracked or missing one leaks and weakens the flame.
3. **Try a match or lighter.** If the piezo igniter doesn't click or spark, light the stove by hand and contact us about the igniter; it's covered by the 2-year warranty.
4. **Clean the jet.** A yellow, sputtering flame means dirt in the jet. With the canister off, brush the burner gently and blow through it; never poke the jet with a needle.

Never use a stove inside a tent. Still no luck? Contact us with your order number.`,
  },
  {
    title: "Headlamp won't turn on, and battery life (Beam 300)",
    category: "Troubleshooting",
    questions: [
      "My headlamp won't turn on",
      "How long does the Beam 300 battery last?",
      "How do I charge my headlamp?",
      "Headlamp turns on in my bag",
    ],
    views: 103,
    helpful: 26,
    notHelpful: 2,
    body: `## It won't turn on

The Beam 300 has a **lock** so it can't switch on in your pack. If the light only blinks twice when you press the button, it's locked: **hold the button for 3 seconds** to unlock it. Hold it for 3 seconds again to lock it.

Still dark? Charge it for 30 minutes and try again.

## Charging

Use any USB-C charger. A full charge takes about **3 hours**; the small indicator glows red while charging and green when full.

## Battery life on a full charge

| Mode | Brightness | Runs for |
|---|---|---|
| High | 300 lumens | about 4 hours |
| Medium | 100 lumens | about 12 hours |
| Low | 10 lumens | about 60 hours |
| Red light | - | about 80 hours |

Batteries run shorter in the cold; keep the lamp in an inside pocket overnight.`,
  },
  {
    title: "Fixing a stuck or split zipper",
    category: "Troubleshooting",
    questions: [
      "My zipper is stuck",
      "The zipper splits open behind the slider",
      "How do I fix a broken zipper?",
      "My backpack zipper broke",
    ],
    views: 77,
    helpful: 18,
    notHelpful: 3,
    body: `## Stuck

Don't force it. Pull the fabric out of the teeth gently, then rub the teeth with a candle, a bar of soap or zipper wax and work the slider back and forth.

## Splits open behind the slider

The slider has worn open. Close it slightly: with pliers, squeeze the **back** of the slider very gently on both sides, a little at a time, testing after each squeeze.

## Teeth missing or the slider came off

That needs a repair. Zipper failures in normal use are covered by our **2-year warranty**; see {{Our warranty: broken or faulty gear}}. Send us a photo and your order number.

Keep zippers working by brushing out sand and grit after trips and closing them before washing.`,
  },
  {
    title: "Washing and storing a down sleeping bag",
    category: "Product Care",
    questions: [
      "How do I wash my sleeping bag?",
      "Can I put my down bag in the dryer?",
      "How should I store my sleeping bag?",
      "My sleeping bag lost its loft",
    ],
    views: 92,
    helpful: 24,
    notHelpful: 1,
    body: `Wash a down bag like the Summit 0° only when it's dirty or has lost its loft, about once a year with regular use.

## Washing

1. Use a **front-loading** machine (a top-loader's agitator can tear baffles) on a gentle, warm cycle.
2. Use a **down wash**, never regular detergent or softener.
3. Add an extra rinse to clear all the soap.

## Drying

Tumble dry on **low heat** with two or three clean tennis or dryer balls to break up clumps. It takes 2-3 hours; keep going until no clumps are left, because damp down smells and loses warmth.

## Storing

Store it **loose** in the large cotton storage sack it came with, or hanging in a closet. The small stuff sack is for trips only: down kept compressed for months loses its loft.

Choosing a size: the Regular fits people up to 6'0" (183 cm), the Long up to 6'6" (198 cm).`,
  },
  {
    title: "Keeping a rain jacket waterproof",
    category: "Product Care",
    questions: [
      "My rain jacket is leaking",
      "My jacket is wetting out",
      "How do I wash my Storm Shell?",
      "How do I re-waterproof my jacket?",
    ],
    views: 158,
    helpful: 39,
    notHelpful: 5,
    body: `A jacket that feels wet inside is usually **wetting out**: dirt has worn down the water-repellent finish (DWR), the outer fabric soaks up rain, and the jacket stops breathing, so sweat condenses inside.

## Bring it back

1. **Wash it** every 10-15 days of use with a technical wash (no detergent, no softener). Close the zippers and Velcro first.
2. **Tumble dry on low for 20 minutes.** Heat reactivates the water-repellent finish. Water should bead up again.
3. If it still soaks in, **re-treat** it with a spray-on DWR product and tumble dry on low again.

## Real leaks

Water coming through at the **seams** or a **hole**, rather than all over, is a defect or damage. Seam failures in normal use are covered by our **2-year warranty**; contact us with photos and your order number.`,
  },
  {
    title: "Caring for your tent",
    category: "Product Care",
    questions: [
      "How do I clean my tent?",
      "My tent smells musty",
      "How should I store my tent?",
      "Can I machine wash my tent?",
    ],
    views: 71,
    helpful: 17,
    notHelpful: 1,
    body: `A little care keeps a tent like the Ridgeline 2 going for many seasons.

- **Dry it before storing.** Packing a tent away damp causes mildew and that musty smell within days. Set it up at home or hang it until it's fully dry.
- **Clean it by hand.** Never machine wash or tumble dry a tent. Sponge it with lukewarm water and a little mild soap, rinse and air dry.
- **Store it loose**, in a breathable bag in a cool, dry place, not in its stuff sack.
- **Go easy on the poles.** Let the shock cord pull each section together rather than letting them snap shut, and fold from the middle.
- **Use a footprint** to protect the floor from rocks and roots.

A cracked pole on a trip? Use the repair sleeve that comes with the tent, and see {{Our warranty: broken or faulty gear}}.`,
  },
  {
    title: "Finding your size",
    category: "Contact & Sales",
    questions: [
      "What size should I order?",
      "Do you have a size chart?",
      "Which sleeping bag length do I need?",
      "Do your jackets run small?",
    ],
    views: 134,
    helpful: 29,
    notHelpful: 6,
    body: `Each product page has a **Size chart** link under the size buttons, with measurements in inches and centimetres.

- **Jackets and layers** are cut to fit over a base layer and a fleece. If you're between sizes, or want to wear a thick insulated jacket underneath, choose the larger size.
- **Sleeping bags**: the Regular fits people up to **6'0" (183 cm)**, the Long up to **6'6" (198 cm)**.
- **Backpacks** are sized by torso length, not height: measure from the bone at the base of your neck to the top of your hip bones.

Not right? Exchanges are free within 30 days; see {{Exchanging an item for another size or colour}}.`,
  },
  {
    title: "Contacting customer support",
    category: "Contact & Sales",
    questions: [
      "How do I contact you?",
      "What are your support hours?",
      "What is your phone number?",
      "What is your email address?",
    ],
    views: 256,
    helpful: 48,
    notHelpful: 5,
    body: `Our support team is here ${SUPPORT_HOURS}.

- **Live chat**: the chat button at the bottom right of every page, during those hours.
- **Phone**: (800) 555-0142, during those hours.
- **Email**: support@acme-outdoor.example, any time; we answer within **one business day**.

Have your **order number** ready (it starts with # and is in your confirmation email); it lets us help you much faster.`,
  },
  {
    title: "Group and club discounts",
    category: "Contact & Sales",
    questions: [
      "Do you offer bulk discounts?",
      "Is there a discount for hiking clubs?",
      "Can I get a quote for a large order?",
      "Do you have team pricing?",
    ],
    views: 46,
    helpful: 11,
    notHelpful: 0,
    body: `Clubs, schools, scout groups and companies buying several of the same item get a discount:

- **10 to 24 units** of one item: **10% off**
- **25 units or more**: **20% off**

Email sales@acme-outdoor.example with the items, quantities and delivery address, and we send a quote within one business day. Group discounts can't be combined with promo codes.`,
  },
  {
    title: "Holiday shipping deadlines",
    category: "Shipping & Delivery",
    status: "draft",
    questions: ["When do I need to order for Christmas delivery?"],
    views: 0,
    helpful: 0,
    notHelpful: 0,
    body: `Draft: dates to confirm with the carriers before publishing.`,
  },
];

/** `{{Title}}` in a body becomes a link to that article in the help center; a title that does not exist is a bug. */
function linkArticles(body: string, orgSlug: string): string {
  return body.replace(/\{\{([^}]+)\}\}/g, (_, title: string) => {
    if (!ARTICLES.some((a) => a.title === title)) throw new Error(`seed-kb: no article titled "${title}"`);
    return `[${title}](${helpArticlePath(orgSlug, kbSlug(title, "article"))})`;
  });
}

/** Seeds the demo organization's knowledge base; authors[0] writes most articles, authors[1] the product guides. */
export async function seedDemoKb(tx: Tx, org: { id: string; slug: string }, authors: { id: string }[]) {
  const orgId = org.id;
  const categories = await tx
    .insert(kbCategories)
    .values(
      CATEGORIES.map((name, position) => ({
        organizationId: orgId,
        name,
        slug: kbSlug(name, "category"),
        position,
      })),
    )
    .returning({ id: kbCategories.id, name: kbCategories.name });
  const categoryId = new Map(categories.map((c) => [c.name, c.id]));
  const day = 86_400_000;
  await tx.insert(kbArticles).values(
    ARTICLES.map((article, i) => {
      const published = article.status !== "draft";
      const written = new Date(Date.now() - (60 - i * 2) * day);
      const productGuide = article.category === "Troubleshooting" || article.category === "Product Care";
      return {
        organizationId: orgId,
        categoryId: categoryId.get(article.category) ?? null,
        title: article.title,
        slug: kbSlug(article.title, "article"),
        body: linkArticles(article.body, org.slug),
        questions: article.questions,
        status: published ? ("published" as const) : ("draft" as const),
        viewCount: article.views,
        helpfulCount: article.helpful,
        notHelpfulCount: article.notHelpful,
        authorId: (productGuide ? authors[1] : authors[0])?.id ?? null,
        createdAt: written,
        updatedAt: written,
        publishedAt: published ? written : null,
      };
    }),
  );
}
