import type { ReviewErrorPage as ReviewErrorData } from '../types';
import { PageContainer } from '../ui/PageContainer';

/** WordPress's "Comment Submission Failure" page: a review posted without scripts and refused. */
export function ReviewErrorPage({ data }: { data: ReviewErrorData }) {
  return (
    <PageContainer narrow className="review-error">
      <h1>{data.title}</h1>
      <div className="woocommerce-error" role="alert">
        <p>
          <strong>Error:</strong> {data.message}
        </p>
      </div>
      <p>
        {data.back ? (
          <a className="button" href={`${data.back}#review_form`}>
            « Back to the review form
          </a>
        ) : (
          <a className="button" href="/shop/">
            Continue shopping
          </a>
        )}
      </p>
    </PageContainer>
  );
}
