import type { ContactPage as ContactPageData } from '../types';
import { Breadcrumbs } from '../ui/Breadcrumbs';
import { ContactForm } from './ContactForm';
import { pageAt, PRIVACY_PATH } from '../lib/legal';
import './contact.css';
import { PageContainer } from '../ui/PageContainer';
import { Later } from '../lib/hydrate-later';

/**
 * The contact page (/contact/): the shop's Contact Form 7 form. The same page
 * for everyone (cached); what belongs to a visitor happens in the browser.
 * Sending needs scripts (the invisible bot-check and the REST call, as
 * with CF7 itself): without them the form still shows and a note says so.
 */
export function ContactPage({ data }: { data: ContactPageData }) {
  return (
    <PageContainer className="page-contact">
      <Breadcrumbs items={data.breadcrumbs} />
      <h1 className="page-title">{data.title}</h1>
      <p className="contact-intro">
        Questions about an order, a product or anything else? Write to us below and we will answer by email.
      </p>
      <noscript>
        <p className="woocommerce-info contact-noscript">
          Sending this form needs JavaScript: it runs a short, invisible check that you are not a robot. Please turn JavaScript on and
          reload the page.
        </p>
      </noscript>
      {/* Hydrated after the page's first pass (lib/hydrate-later.tsx). */}
      <Later>
        <ContactForm form={data.form} privacyUrl={pageAt(data.pages, PRIVACY_PATH)?.url} />
      </Later>
    </PageContainer>
  );
}
