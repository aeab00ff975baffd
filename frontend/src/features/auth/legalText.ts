export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  effective: string;
  intro: string;
  sections: LegalSection[];
}

export const LEGAL_CONTACT_EMAIL = "legal@example.com";

export const TERMS_OF_USE: LegalDocument = {
  title: "Terms of Use",
  effective: "Effective: January 2025",
  intro:
    "These Terms of Use govern your access to and use of this educational trading-ideas platform, including its website, installable app and messaging channel (together, the \"Platform\"). By creating an account, logging in or otherwise using the Platform you agree to these Terms. If you do not agree, do not use the Platform.",
  sections: [
    {
      heading: "1. Educational Purpose Only",
      paragraphs: [
        "All content on the Platform, including trade ideas, entry and exit levels, invalidation levels, charts, notes, audio and video explanations and chat messages, is published solely for educational and informational purposes. It is intended to illustrate how educators analyse the Forex and Crypto markets and is not a recommendation to buy, sell or hold any financial instrument.",
        "Educators share their own views. Those views may be incomplete, may change without notice and may be wrong. Nothing on the Platform takes into account your personal objectives, financial situation or needs.",
      ],
    },
    {
      heading: "2. No Investment Advice",
      paragraphs: [
        "We are not a broker, dealer, investment adviser or financial institution. We do not provide investment, financial, legal or tax advice, we do not offer broker services, we do not hold client funds and we do not execute trades on your behalf.",
        "You should seek advice from an independent, appropriately licensed professional before making any financial decision. Any trade you place is placed by you, through a provider of your choosing, under that provider's terms.",
      ],
    },
    {
      heading: "3. Risk Warning and Results Not Typical",
      paragraphs: [
        "Trading foreign exchange, cryptocurrencies and leveraged products carries a high level of risk and may not be suitable for everyone. Leverage can work against you as well as for you, and you can lose more than your initial deposit.",
        "Any results, examples or ideas marked as successful are illustrative only. Results are not typical, past performance is not indicative of future results, and no representation is made that any account will or is likely to achieve profits or losses similar to those shown. All trading decisions are made at your own risk.",
      ],
    },
    {
      heading: "4. Accounts and Platform Use",
      paragraphs: [
        "Accounts are personal. You are responsible for keeping your login details confidential and for all activity under your account. Tell us promptly at the contact address below if you suspect unauthorised use.",
        "You agree not to misuse the Platform: you will not attempt to access areas or accounts you are not authorised to use, interfere with its security or operation, scrape or copy content in bulk, reverse engineer it, upload unlawful or harmful material, or use it to harass others. Access to staff areas is restricted to authorized educators and attempts are logged and monitored.",
        "Content on the Platform is protected by intellectual-property rights. You may view it for your own personal, non-commercial education. You may not republish, sell or redistribute it without our written permission.",
      ],
    },
    {
      heading: "5. Availability and Changes",
      paragraphs: [
        "We aim to keep the Platform available but do not guarantee uninterrupted or error-free operation. Notifications may be delayed or not delivered. We may change, suspend or discontinue any part of the Platform at any time.",
        "We may update these Terms from time to time. The effective date above shows when they last changed. Continuing to use the Platform after a change means you accept the updated Terms.",
      ],
    },
    {
      heading: "6. Limitation of Liability",
      paragraphs: [
        "To the fullest extent permitted by law, the Platform and its content are provided \"as is\" and \"as available\" without warranties of any kind, express or implied, including warranties of accuracy, fitness for a particular purpose and non-infringement.",
        "To the fullest extent permitted by law, we, our educators and our partners are not liable for any trading losses, lost profits, lost data or any indirect, incidental, special or consequential damages arising out of or in connection with your use of, or reliance on, the Platform or its content. Where liability cannot be excluded, it is limited to the amount you paid us, if anything, in the twelve months before the claim.",
      ],
    },
    {
      heading: "7. Termination",
      paragraphs: [
        "We may suspend or close your account if you breach these Terms or if required by law. You may stop using the Platform at any time and ask us to close your account.",
      ],
    },
    {
      heading: "8. Contact",
      paragraphs: [`Questions about these Terms can be sent to ${LEGAL_CONTACT_EMAIL}.`],
    },
  ],
};

export const PRIVACY_POLICY: LegalDocument = {
  title: "Privacy Policy",
  effective: "Effective: January 2025",
  intro:
    "This Privacy Policy explains what personal information the Platform collects, how it is used and shared, how it is protected, and the rights you have over it. It applies to everyone who uses the Platform, customers and educators alike.",
  sections: [
    {
      heading: "1. Information We Collect",
      paragraphs: [
        "Account information: your name, e-mail address, role and a password, which we store only as a salted one-way hash. Educators may also add a display name, biography, specialty and profile image.",
        "Usage information: which trade ideas you have seen, your notification preferences for each market, reactions you leave on messages, and technical data such as your browser type, device, IP address and the time of your requests, which we keep in security logs.",
        "Notification data: if you allow push notifications, your browser gives us a subscription address so that we can deliver alerts about new ideas. We do not collect payment card details.",
      ],
    },
    {
      heading: "2. How We Use Information",
      paragraphs: [
        "We use your information to provide and secure the Platform: to sign you in and keep your session active, to show you ideas and messages, to count ideas you have not yet seen, to send the notifications you have chosen, and to detect and prevent abuse such as repeated failed logins.",
        "We may also use aggregated, non-identifying statistics to understand how the Platform is used and to improve it. We do not sell your personal information and we do not use it for third-party advertising.",
      ],
    },
    {
      heading: "3. Sharing of Information",
      paragraphs: [
        "We share personal information only with service providers that help us run the Platform (for example hosting and push-notification delivery), under contracts that require them to protect it and use it only on our instructions.",
        "We may disclose information where required by law, to respond to lawful requests from authorities, or to protect the rights, property or safety of our users, our educators or the public. If the Platform is transferred to a new owner, your information may be transferred with it under this Policy.",
      ],
    },
    {
      heading: "4. Cookies and Local Storage",
      paragraphs: [
        "We use a strictly necessary session cookie to keep you signed in. It cannot be read by scripts on the page and expires after 30 days of inactivity or when you log out. Your browser also stores your theme choice on your device. We do not use advertising or cross-site tracking cookies.",
      ],
    },
    {
      heading: "5. Security",
      paragraphs: [
        "We protect your information with encryption in transit, hashed passwords, server-side permission checks and access logging. No method of transmission or storage is completely secure, however, so we cannot guarantee absolute security. Please choose a strong password and keep it private.",
      ],
    },
    {
      heading: "6. Retention",
      paragraphs: [
        "We keep account information for as long as your account is active and for a reasonable period afterwards to meet legal obligations, resolve disputes and enforce our terms. Security logs are kept for a limited period and then deleted.",
      ],
    },
    {
      heading: "7. Your Rights",
      paragraphs: [
        "Depending on where you live, you may have the right to access the personal information we hold about you, to correct it, to have it deleted, to restrict or object to certain processing, to receive a copy in a portable format and to withdraw consent, for example by turning off notifications. You may also lodge a complaint with your local data-protection authority.",
        "To exercise any of these rights, contact us at the address below. We may need to verify your identity before acting on a request.",
      ],
    },
    {
      heading: "8. Children",
      paragraphs: [
        "The Platform is not directed to anyone under 18, and we do not knowingly collect personal information from children.",
      ],
    },
    {
      heading: "9. Changes and Contact",
      paragraphs: [
        "We may update this Policy from time to time; the effective date above shows when it last changed.",
        `If you have questions about this Policy or your personal information, contact us at ${LEGAL_CONTACT_EMAIL}.`,
      ],
    },
  ],
};
