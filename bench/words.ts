/**
 * Word lists for the benchmark's generated tickets. Lists that are picked with a skew (see seed.ts) put their most
 * common entries first, so full-text search meets a realistic mix of frequent and rare words. Entries are separated
 * by | so that one entry can hold several words.
 */

const list = (entries: string): string[] =>
  entries
    .split("|")
    .map((e) => e.replace(/\s+/g, " ").trim())
    .filter((e) => e.length > 0);

export const FIRST_NAMES = list(`
  James|Mary|Robert|Patricia|John|Jennifer|Michael|Linda|David|Elizabeth|William|Barbara|Richard|Susan|Joseph|
  Jessica|Thomas|Sarah|Charles|Karen|Christopher|Lisa|Daniel|Nancy|Matthew|Betty|Anthony|Sandra|Mark|Margaret|
  Donald|Ashley|Steven|Kimberly|Paul|Emily|Andrew|Donna|Joshua|Michelle|Kenneth|Carol|Kevin|Amanda|Brian|Melissa|
  George|Deborah|Timothy|Stephanie|Ronald|Rebecca|Jason|Sharon|Edward|Laura|Jeffrey|Cynthia|Ryan|Amy|Jacob|
  Kathleen|Gary|Angela|Nicholas|Shirley|Eric|Brenda|Jonathan|Emma|Stephen|Anna|Larry|Pamela|Justin|Nicole|Scott|
  Samantha|Brandon|Katherine|Benjamin|Christine|Samuel|Helen|Gregory|Debra|Alexander|Rachel|Patrick|Carolyn|Frank|
  Janet|Raymond|Maria|Jack|Olivia|Dennis|Heather|Jerry|Diane|Tyler|Julie|Aaron|Joyce|Jose|Victoria|Adam|Ruth|
  Nathan|Virginia|Henry|Lauren|Zachary|Kelly|Douglas|Christina|Peter|Joan|Kyle|Evelyn|Noah|Judith|Ethan|Andrea|
  Jeremy|Hannah|Walter|Megan|Christian|Cheryl|Keith|Jacqueline|Roger|Martha|Terry|Madison|Austin|Teresa|Sean|
  Gloria|Gerald|Sara|Carl|Janice|Harold|Ann|Dylan|Kathryn|Arthur|Abigail|Lawrence|Sophia|Jordan|Frances|Jesse|Jean|
  Bryan|Alice|Billy|Judy|Bruce|Isabella|Gabriel|Julia|Joe|Grace|Logan|Amber|Alan|Denise|Juan|Danielle|Albert|
  Marilyn|Willie|Beverly|Elijah|Charlotte|Wayne|Natalie|Randy|Theresa|Mason|Diana|Vincent|Brittany|Liam|Doris|Roy|
  Kayla|Bobby|Alexis|Caleb|Lori|Bradley|Marie|Russell|Mei|Hiroshi|Priya|Arjun|Sofia|Mateo|Lucia|Ahmed|Fatima|Chen|
  Yuki|Ingrid|Lars|Aoife|Siobhan|Kwame|Amara|Dmitri|Olga|Giulia|Marco|Zeynep|Emre
`);

export const LAST_NAMES = list(`
  Smith|Johnson|Williams|Brown|Jones|Garcia|Miller|Davis|Rodriguez|Martinez|Hernandez|Lopez|Gonzalez|Wilson|
  Anderson|Thomas|Taylor|Moore|Jackson|Martin|Lee|Perez|Thompson|White|Harris|Sanchez|Clark|Ramirez|Lewis|Robinson|
  Walker|Young|Allen|King|Wright|Scott|Torres|Nguyen|Hill|Flores|Green|Adams|Nelson|Baker|Hall|Rivera|Campbell|
  Mitchell|Carter|Roberts|Gomez|Phillips|Evans|Turner|Diaz|Parker|Cruz|Edwards|Collins|Reyes|Stewart|Morris|
  Morales|Murphy|Cook|Rogers|Gutierrez|Ortiz|Morgan|Cooper|Peterson|Bailey|Reed|Kelly|Howard|Ramos|Kim|Cox|Ward|
  Richardson|Watson|Brooks|Chavez|Wood|James|Bennett|Gray|Mendoza|Ruiz|Hughes|Price|Alvarez|Castillo|Sanders|Patel|
  Myers|Long|Ross|Foster|Jimenez|Powell|Jenkins|Perry|Russell|Sullivan|Bell|Coleman|Butler|Henderson|Barnes|
  Gonzales|Fisher|Vasquez|Simmons|Romero|Jordan|Patterson|Alexander|Hamilton|Graham|Reynolds|Griffin|Wallace|
  Moreno|West|Cole|Hayes|Bryant|Herrera|Gibson|Ellis|Tran|Medina|Aguilar|Stevens|Murray|Ford|Castro|Marshall|Owens|
  Harrison|Fernandez|McDonald|Woods|Washington|Kennedy|Wells|Vargas|Henry|Chen|Freeman|Webb|Tucker|Guzman|Burns|
  Crawford|Olson|Simpson|Porter|Hunter|Gordon|Mendez|Silva|Shaw|Snyder|Mason|Dixon|Munoz|Hunt|Hicks|Holmes|Palmer|
  Wagner|Black|Robertson|Boyd|Rose|Stone|Salazar|Fox|Warren|Mills|Meyer|Rice|Schmidt|Garza|Daniels|Ferguson|
  Nichols|Stephens|Soto|Weaver|Ryan|Gardner|Payne|Grant|Dunn|Kelley|Spencer|Hawkins|Arnold|Pierce|Vazquez|Hansen|
  Peters|Santos|Hart|Bradley|Knight|Elliott|Cunningham|Duncan|Armstrong|Hudson|Carroll|Lane|Riley|Andrews|Alvarado|
  Ray|Delgado|Berry|Perkins|Hoffman|Johnston|Matthews|Pena|Richards|Contreras|Willis|Carpenter|Lawrence|Sandoval|
  O'Connor|O'Brien|Nakamura|Tanaka|Kowalski|Novak|Lindqvist|Okafor|Mensah|Haddad|Rossi|Dubois|Fischer|Yilmaz
`);

export const EMAIL_DOMAINS = list(`
  gmail.com|outlook.com|yahoo.com|icloud.com|hotmail.com|proton.me|aol.com|live.com|gmx.de|fastmail.com|
  example.com|acme-corp.com|northwind.io|contoso.com|fabrikam.net|globex.com|initech.com|umbrella.co|hooli.com|
  piedpiper.net|stark-industries.com|wayne-enterprises.com|tyrell.biz|cyberdyne.io|soylent.org|wonka.co.uk|
  oceanic-air.com|dunder-mifflin.com
`);

/** Things a customer writes about; the first ones are the best sellers. */
export const PRODUCTS = list(`
  order|account|subscription|invoice|password|tent|backpack|jacket|hiking boots|sleeping bag|headlamp|water filter|
  mobile app|gift card|rain jacket|camping stove|trekking poles|sleeping pad|fleece|tent footprint|dry bag|cooler|
  hammock|trail runners|base layer|down vest|climbing harness|carabiner|chalk bag|bike helmet|bike lights|panniers|
  water bottle|insulated mug|solar charger|power bank|GPS watch|compass|first aid kit|bear canister|snowshoes|
  ski goggles|avalanche beacon|paddle|kayak|life jacket|wetsuit|tent stakes|rain fly|zipper pull|loyalty points|
  return label|shipping label|warranty card|rental booking|workshop ticket|membership card|newsletter|wishlist|
  store credit
`);

/** What went wrong, in a customer's words. */
export const SYMPTOMS = list(`
  stopped working|arrived damaged|is missing parts|was never delivered|is the wrong size|is the wrong colour|
  was charged twice|cannot be found|keeps crashing|will not charge|leaks water|zipper is broken|seam ripped open|
  smells of mildew|has a hole|is much smaller than pictured|does not match the description|
  was delivered to the wrong address|tracking has not updated|shows an error|is stuck on loading|
  was cancelled without notice|has not been refunded|is too heavy|buckle snapped|strap came loose|pole bent|
  coating is peeling|battery drains overnight|screen flickers|will not sync|lost all my data|code is not accepted|
  expired too early|price changed at checkout|says out of stock|is backordered|was returned to sender|
  signature was required|box was empty
`);

/** What the ticket is about. */
export const TOPICS = list(`
  refund|shipping|delivery|billing|returns|exchange|warranty|login|password reset|discount code|promo code|invoice|
  payment|subscription|cancellation|account access|two-factor authentication|order status|tracking number|
  address change|gift wrapping|international shipping|customs fees|bulk order|price match|store pickup|rental|
  repair|spare parts|sizing|product recommendation|loyalty program|email notifications|data export|privacy request|
  accessibility|mobile app|website bug|newsletter unsubscribe|tax exemption
`);

export const PROBLEMS = list(`
  Problem|Issue|Trouble|Something wrong|Help needed|Question|Complaint|Urgent problem|Another issue|
  Still a problem
`);

export const ORDER_ISSUES = list(`
  not delivered|arrived late|missing items|wrong item received|charged twice|cannot track|needs a refund|
  stuck in customs|partially shipped|delivered but not received|cancel please|change shipping address
`);

export const REQUESTS = list(`
  Need help with|Can you help with|Please assist with|Quick question about|Follow-up on|Escalation:|Re:|Fwd:|
  Urgent:|Help with
`);

export const OPENERS = list(`
  Hi, my|Hello, the|Hi there, my|Good morning, my|Hey team, the|Dear support, my|Hello, our|Hi, I think my|
  Hi, unfortunately my|Hello again, the
`);

/** Sentences a customer adds; realistic filler that also carries searchable words. */
export const DETAILS = list(`
  I ordered it three weeks ago and have been waiting since.|I already tried turning it off and on again.|
  The courier says it was delivered but nothing is at my door.|My card statement shows two identical charges.|
  I have attached a photo of the damage.|This is the second time this has happened.|
  The confirmation email never arrived.|I updated the app to the latest version this morning.|
  It worked fine for the first two trips.|My neighbour received my parcel by mistake.|
  The reset link in the email says it has expired.|I used the discount code from your newsletter.|
  The box was crushed and the tape was open.|I need this before my trip next weekend.|
  I would prefer an exchange over a refund.|The size chart on the website seems to be off.|
  My bank says the refund was never issued.|I cannot find the order in my account history.|
  The invoice shows the wrong company name and VAT number.|Support chat disconnected twice while I was waiting.|
  The tracking number returns no results on the carrier site.|I moved house last month and updated my address.|
  The warranty card says two years but the site says one.|I have been a loyal customer for many years.|
  Please call me back, my phone number is on the account.|I am travelling abroad and can only reply by email.|
  The product page promised free returns.|I tried three different browsers and the error is the same.|
  My colleague has the same problem with her account.|The instructions in the box are missing a page.|
  Two-factor codes arrive several minutes late.|The seams started to leak during light rain.|
  The battery indicator jumps from full to empty.|I was charged customs fees that I did not expect.|
  The gift card balance shows zero although I never used it.|I want to cancel before the next billing cycle.|
  The checkout page keeps asking for my postcode.|I received a replacement but it has the same defect.|
  Our team account lost access after the plan change.|The export file is empty when I open it.
`);

/** The everyday vocabulary of support mail, most common first. */
export const VOCABULARY = list(`
  please|help|thanks|order|account|issue|email|today|week|still|again|refund|delivery|payment|number|problem|
  update|customer|item|package|website|error|return|time|days|team|card|address|price|support|service|received|
  replacement|waiting|message|phone|store|shipping|charge|tracking|password|login|app|product|quality|size|colour|
  box|courier|carrier|label|receipt|invoice|discount|code|voucher|credit|balance|subscription|renewal|plan|upgrade|
  downgrade|cancel|confirm|request|urgent|quickly|soon|yesterday|morning|evening|weekend|holiday|trip|hike|camp|
  trail|mountain|river|lake|rain|snow|cold|warm|wind|sun|night|battery|charger|cable|screen|button|zipper|strap|
  buckle|seam|fabric|sole|lace|pole|stake|rope|valve|lid|handle|wheel|frame|pocket|hood|collar|sleeve|lining|
  insulation|waterproof|breathable|lightweight|durable|broken|damaged|faulty|defective|missing|wrong|late|lost|
  stolen|torn|scratched|dented|cracked|leaking|loose|stuck|frozen|slow|crashing|blank|expired|invalid|declined|
  pending|approved|shipped|dispatched|delivered|collected|returned|exchanged|repaired|replaced|credited|refunded|
  charged|billed|overcharged|duplicate|twice|partial|full|manager|supervisor|escalate|complaint|feedback|review|
  rating|recommend|disappointed|frustrated|happy|grateful|surprised|confused|worried|annoyed|patient|polite|
  helpful|prompt|reply|answer|callback|ticket|case|reference|photo|screenshot|attachment|video|document|form|
  checkout|basket|cart|wishlist|coupon|newsletter|notification|reminder|settings|profile|preferences|privacy|
  security|verification|identity|signature|warehouse|depot|postcode|customs|duties|tax|vat|import|export|
  international|domestic|express|standard|overnight|economy|pickup|dropoff|locker|doorstep|neighbour|reception|
  mailroom|backorder|restock|preorder|clearance|sale|bundle|gift|wrapping|engraving|personalised|warranty|
  guarantee|manual|instructions|assembly|installation|firmware|bluetooth|wifi|sync|backup|restore|reset|reinstall|
  browser|cookies|cache|android|iphone|tablet|laptop|desktop|printer|scanner|spreadsheet|integration|webhook|api|
  token|sandbox|migration|sso|saml|audit|compliance|gdpr|accessibility|screenreader|latency|outage|downtime|
  maintenance|incident|status|degraded|intermittent|timeout|throttled|quota|limit|storage|bandwidth|crampons|
  ice axe|belay|quickdraw|bivvy|tarp|paracord|gaiters|microspikes|headnet|sunscreen|repellent|lantern|percolator|
  dehydrated|ration|altimeter|barometer|topographic|orienteering|bushcraft|packraft|portage|canoe|dinghy|drybag|
  neoprene|snorkel|fins|spearfishing|tideline|estuary|fjord|glacier|moraine|scree|couloir|bergschrund|serac|
  cornice|sastrugi|verglas|graupel|firn|penitentes
`);

export const AGENT_OPENERS = list(`
  Thanks for reaching out!|Sorry to hear about this.|Thanks for your patience.|Good news:|
  I have looked into this for you.|Thank you for the details.|Apologies for the trouble.|
  Following up on your request:|I checked with our warehouse team.|I have escalated this to billing.
`);

export const AGENT_SENTENCES = list(`
  A replacement is on its way and you should receive it within five working days.|
  I have issued a full refund to your original payment method.|
  Could you send us a photo of the damage and your order number?|
  Your parcel left our warehouse this morning and tracking should update tonight.|
  I have reset your password; please use the link in the email we just sent.|
  The duplicate charge was a pre-authorisation and will drop off within three days.|
  I have updated the shipping address on your order.|I have applied the discount code manually to your order.|
  Our repair team will contact you to arrange a pickup.|
  Please try clearing your browser cache and signing in again.|
  The invoice has been corrected and reissued to your email address.|
  Your subscription has been cancelled and you will not be billed again.|
  I have extended your warranty by six months as a goodwill gesture.|
  The item is back in stock next week and I have reserved one for you.|
  I have added store credit to your account for the inconvenience.
`);

export const CUSTOMER_FOLLOWUPS = list(`
  Thanks, that worked!|Still waiting on this, any update?|I sent the photos yesterday.|
  The refund has not arrived yet.|Perfect, thank you so much.|This is still not fixed.|
  Can you confirm the new delivery date?|I received it today, all good.|The link you sent has expired.|
  Please close this ticket.
`);

export const TAGS = list(`
  billing|refund|shipping|warranty|returns|login|bug|feature-request|vip|escalated|damaged|exchange|invoice|mobile|
  web|wholesale|international|follow-up|sizing|repair
`);

export const ORG_NAMES = list(`
  Northwind Outfitters|Summit Gear|Trailhead Supply|Alpine Works|Blue Ridge Goods|Canyon Co.|Cedar & Pine|
  Driftwood Labs|Evergreen Retail|Fjord Systems|Granite Peak|Harbor Lights|Ironwood Tools|Juniper Health|
  Kestrel Software|Lakeside Books|Meridian Travel|Nimbus Cloud|Oakridge Bank|Pinecone Media
`);
